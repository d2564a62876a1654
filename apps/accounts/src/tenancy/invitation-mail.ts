/** What the invitation flow needs from a mailer: said once here so the flow does not care which transport sends it. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface MailSender {
  readonly configured: boolean;
  send(mail: OutgoingMail): Promise<unknown>;
}

export const MAIL_SENDER = Symbol('MAIL_SENDER');

export function invitationMail(input: { to: string; workspaceName: string; role: string; acceptUrl: string; expiresAt: Date }): OutgoingMail {
  return {
    to: input.to,
    subject: `You are invited to the workspace ${input.workspaceName}`,
    text: [
      `You have been invited to join the workspace "${input.workspaceName}" as ${input.role}.`,
      '',
      `Accept the invitation: ${input.acceptUrl}`,
      '',
      `The link works until ${input.expiresAt.toISOString()} and only for the address it was sent to.`,
    ].join('\n'),
  };
}
