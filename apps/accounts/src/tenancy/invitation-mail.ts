import type { MailMessage } from '@social/platform';

export function invitationMail(input: {
  to: string;
  workspaceName: string;
  role: string;
  acceptUrl: string;
  expiresAt: Date;
}): MailMessage {
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
