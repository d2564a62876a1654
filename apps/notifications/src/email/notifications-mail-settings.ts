import { Inject, Injectable } from '@nestjs/common';
import { InstanceSettings, Mailer, MailSettings, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';

/** Notifications' mailer and the base of links in mail, from the shared mail settings (read at start-up, like accounts; not live). */
@Injectable()
export class NotificationsMailSettings {
  readonly mailer: Mailer;
  /** No trailing slash; relative links are appended to it. */
  readonly publicAppUrl: string;

  constructor(settings: InstanceSettings, @Inject(SERVICE_LOGGER) logger: Logger) {
    const mail = MailSettings.from(settings, logger);
    this.mailer = new Mailer({ SMTP_URL: mail.smtpUrl, SMTP_FROM: mail.smtpFrom });
    this.publicAppUrl = mail.publicAppUrl;
  }
}
