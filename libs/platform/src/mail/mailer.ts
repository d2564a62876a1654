import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

export type MailFailure = 'not_configured' | 'refused' | 'unreachable';

/** Why a mail could not be handed to the SMTP server; request paths turn it into a 503. */
export class MailDeliveryError extends Error {
  constructor(
    readonly reason: MailFailure,
    message: string,
    /** The SMTP reply code of a refusal (5xx permanent, 4xx temporary), when the server gave one. */
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text`, when the sender has one. */
  html?: string;
}

export interface MailerSettings {
  /** smtp(s)://[user:password@]host:port; unset means mail cannot be sent. */
  SMTP_URL?: string;
  SMTP_FROM: string;
}

/** Short enough that a request waiting on SMTP never outlives the gateway's 10 s. */
const TIMEOUTS = { connectionTimeout: 3_000, greetingTimeout: 3_000, socketTimeout: 5_000 };
/** The whole exchange, however the server dribbles its answers. */
const SEND_DEADLINE_MS = 7_000;
/** nodemailer's codes for "could not talk to the server at all". */
const UNREACHABLE_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'ECONNREFUSED']);

/**
 * Sends plain-text mail through the configured SMTP server, one connection per
 * message (mail is rare here; a pool would hold sockets open for nothing).
 */
export class Mailer {
  private readonly transport?: Transporter;

  constructor(private readonly settings: MailerSettings) {
    if (settings.SMTP_URL) this.transport = nodemailer.createTransport({ url: settings.SMTP_URL, ...TIMEOUTS });
  }

  get configured(): boolean {
    return this.transport !== undefined;
  }

  async send(message: MailMessage): Promise<{ messageId: string; response: string }> {
    if (!this.transport) throw new MailDeliveryError('not_configured', 'SMTP_URL is not set.');
    let deadline: NodeJS.Timeout | undefined;
    try {
      const info = await Promise.race([
        this.transport.sendMail({ from: this.settings.SMTP_FROM, ...message }),
        new Promise<never>((_resolve, reject) => {
          deadline = setTimeout(
            () => reject(Object.assign(new Error(`SMTP did not finish within ${SEND_DEADLINE_MS} ms`), { code: 'ETIMEDOUT' })),
            SEND_DEADLINE_MS,
          );
        }),
      ]);
      return { messageId: info.messageId ?? '', response: info.response ?? '' };
    } catch (error) {
      const { code, responseCode, message: text } = error as { code?: string; responseCode?: number; message?: string };
      const reason = !responseCode && code && UNREACHABLE_CODES.has(code) ? 'unreachable' : 'refused';
      throw new MailDeliveryError(reason, text ?? String(error), responseCode);
    } finally {
      clearTimeout(deadline);
    }
  }
}
