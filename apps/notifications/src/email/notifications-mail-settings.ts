import { Inject, Injectable } from '@nestjs/common';
import { InstanceSettings, Mailer, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';

/**
 * What notifications needs to send mail: the instance settings smtp_url,
 * smtp_from and public_app_url (links in mail), read at start-up like
 * accounts does (database > environment > default; not live).
 */
@Injectable()
export class NotificationsMailSettings {
  readonly mailer: Mailer;
  /** No trailing slash; relative links are appended to it. */
  readonly publicAppUrl: string;

  constructor(settings: InstanceSettings, @Inject(SERVICE_LOGGER) logger: Logger) {
    let smtpUrl: string | undefined = settings.string('smtp_url') || undefined;
    if (smtpUrl !== undefined && !isSmtpUrl(smtpUrl)) {
      logger.warn({ source: settings.resolved('smtp_url').source }, 'smtp_url is not an smtp(s):// URL: notification mail waits until it is');
      smtpUrl = undefined;
    }
    this.mailer = new Mailer({ SMTP_URL: smtpUrl, SMTP_FROM: settings.string('smtp_from') });
    this.publicAppUrl = settings.string('public_app_url').replace(/\/+$/, '');
  }
}

function isSmtpUrl(value: string): boolean {
  try {
    return ['smtp:', 'smtps:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
