import { Injectable } from '@nestjs/common';
import type { TopicPreference } from '@social/contracts';
import { preparedQuery } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { renderImmediateMail } from '../email/mail-content.js';
import { emailChannel } from '../email/email-channel.js';
import { NotificationsMailSettings } from '../email/notifications-mail-settings.js';
import { effectivePreferences, topicDefinition } from '../preferences/topics.js';
import type { OutgoingNotification } from './outgoing-notification.js';

/** Each recipient's stored topic choices and the end of the latest mute holding this workspace now (null: none). */
const RECIPIENT_SETTINGS = `
  SELECT r.user_id, p.topics,
         (SELECT max(m.ends_at) FROM mutes m
           WHERE m.user_id = r.user_id AND m.starts_at <= now() AND m.ends_at > now()
             AND (m.workspace_id IS NULL OR m.workspace_id = $2)) AS held_until
    FROM unnest($1::uuid[]) AS r(user_id)
    LEFT JOIN preferences p ON p.user_id = r.user_id`;

/** New items only: a redelivered event conflicts on (event_id, user_id) and returns nothing, so no second mail. */
const INSERT_ITEMS = `
  INSERT INTO notifications (id, event_id, user_id, topic, workspace_id, organization_id, title, body, link, in_app, digest_pending,
                             created_at)
  SELECT i.id, $1, i.user_id, $2, $3, $4, $5, $6, $7, i.in_app, i.digest, i.created_at
    FROM unnest($8::uuid[], $9::uuid[], $10::boolean[], $11::boolean[], $12::timestamptz[]) AS i(id, user_id, in_app, digest, created_at)
  ON CONFLICT ON CONSTRAINT notifications_event_user_key DO NOTHING
  RETURNING id, user_id, created_at`;

interface RecipientSettings {
  user_id: string;
  topics: Record<string, TopicPreference> | null;
  held_until: Date | null;
}

/**
 * The one place an event becomes in-app items and mail: preferences and mutes
 * are applied here, each (event, recipient) makes at most one item (the unique
 * key; redeliveries insert nothing) and at most one immediate mail, written in
 * the same transaction as an `email_deliveries` row (EmailSender sends it).
 * Daily-digest topics mark the item `digest_pending` (DigestScheduler).
 */
@Injectable()
export class NotificationDispatcher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly mail: NotificationsMailSettings,
  ) {}

  /** Returns how many new items were made (0 on a redelivery). */
  async dispatch(eventId: string, message: OutgoingNotification): Promise<number> {
    const definition = topicDefinition(message.topic);
    if (!definition) throw new Error(`unknown topic ${message.topic}`);
    const recipients = [...new Set(message.recipients.map((id) => id.toLowerCase()))];
    if (recipients.length === 0) return 0;
    const occurredAt = message.occurredAt && !Number.isNaN(Date.parse(message.occurredAt)) ? new Date(message.occurredAt) : new Date();
    // Named statements: every published rendition comes through here (the scheduler's burst, docs/performance.md). The
    // settings are read before any write: an event that makes no immediate mail is one INSERT, atomic by itself.
    const settings = await preparedQuery<RecipientSettings>(
      this.dataSource.manager,
      'notifications.recipient-settings',
      RECIPIENT_SETTINGS,
      [recipients, message.workspaceId],
    );
    const items: Array<{ id: string; userId: string; inApp: boolean; email: string; createdAt: Date }> = [];
    for (const recipient of settings) {
      const preference = effectivePreferences(recipient.topics ?? {})[definition.id];
      const inApp = definition.critical_in_app || preference.in_app;
      const email = definition.transactional ? 'immediate' : preference.email_frequency;
      if (!inApp && email === 'off') continue;
      // A mute holds optional topics until it ends: the item appears, and the mail leaves, then.
      const heldUntil = definition.mute_applies && recipient.held_until ? new Date(recipient.held_until) : null;
      items.push({ id: uuidv7(), userId: recipient.user_id, inApp, email, createdAt: heldUntil ?? occurredAt });
    }
    if (items.length === 0) return 0;
    const write = async (db: EntityManager) => {
      const inserted = (
        await preparedQuery<{ id: string }>(db, 'notifications.insert-items', INSERT_ITEMS, [
          eventId,
          definition.id,
          message.workspaceId,
          message.organizationId ?? null,
          message.title,
          message.body,
          message.link,
          items.map((i) => i.id),
          items.map((i) => i.userId),
          items.map((i) => i.inApp),
          items.map((i) => i.email === 'daily'),
          items.map((i) => i.createdAt.toISOString()),
        ])
      ).map((row) => row.id);
      const fresh = new Set(inserted);
      const mails = items.filter((i) => fresh.has(i.id) && i.email === 'immediate');
      if (mails.length > 0) {
        const content = renderImmediateMail(message, this.mail.publicAppUrl);
        await db.query(
          `INSERT INTO email_deliveries (id, user_id, kind, notification_id, workspace_id, organization_id, subject, text_body, html_body,
                                         next_attempt_at, created_at)
           SELECT m.id, m.user_id, 'immediate', m.notification_id, $1, $2, $3, $4, $5, m.at, now()
             FROM unnest($6::uuid[], $7::uuid[], $8::uuid[], $9::timestamptz[]) AS m(id, user_id, notification_id, at)`,
          [
            message.workspaceId,
            message.organizationId ?? null,
            content.subject,
            content.text,
            content.html,
            mails.map(() => uuidv7()),
            mails.map((m) => m.userId),
            mails.map((m) => m.id),
            mails.map((m) => (m.createdAt > new Date() ? m.createdAt : new Date()).toISOString()),
          ],
        );
        await db.query(`SELECT pg_notify($1 || current_schema(), '')`, [emailChannel('')]);
      }
      return inserted.length;
    };
    // The items and their mail rows together (a mail row names its item), or the items alone.
    return items.some((item) => item.email === 'immediate') ? this.dataSource.transaction(write) : write(this.dataSource.manager);
  }
}
