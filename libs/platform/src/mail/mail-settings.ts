import type { InstanceSettings } from '../settings/instance-settings.js';
import type { Logger } from 'pino';

/**
 * What a service needs to send mail (accounts: email-change codes, invitations;
 * notifications: notices and digests): the instance settings smtp_url,
 * smtp_from and public_app_url, read once at start-up (database > environment
 * > default, none of them live).
 */
export class MailSettings {
  constructor(
    /** undefined: mail is not configured (accounts answers 503 where it must send; notifications' mail waits). */
    readonly smtpUrl: string | undefined,
    readonly smtpFrom: string,
    /** No trailing slash; links append `/invite?token=…`. */
    readonly publicAppUrl: string,
  ) {}

  static from(settings: InstanceSettings, logger?: Logger): MailSettings {
    let smtpUrl: string | undefined = settings.string('smtp_url') || undefined;
    // The registry types smtp_url as a secret (any text): a value nodemailer cannot use means "not configured".
    if (smtpUrl !== undefined && !isSmtpUrl(smtpUrl)) {
      logger?.warn({ source: settings.resolved('smtp_url').source }, 'smtp_url is not an smtp(s):// URL: outgoing mail is not configured');
      smtpUrl = undefined;
    }
    return new MailSettings(smtpUrl, settings.string('smtp_from'), settings.string('public_app_url').replace(/\/+$/, ''));
  }
}

function isSmtpUrl(value: string): boolean {
  try {
    return ['smtp:', 'smtps:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
