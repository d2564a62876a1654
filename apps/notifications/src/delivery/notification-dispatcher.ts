import { Injectable } from '@nestjs/common';
import type { TopicPreference } from '@social/contracts';
import { KeyedBatches, preparedQuery, togetherOrEachAlone } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { renderImmediateMail } from '../email/mail-content.js';
import { emailChannel } from '../email/email-channel.js';
import { NotificationsMailSettings } from '../email/notifications-mail-settings.js';
import { effectivePreferences, topicDefinition } from '../preferences/topics.js';
import type { OutgoingNotification } from './outgoing-notification.js';

/**
 * Each recipient's stored topic choices and the end of the latest mute holding the event's workspace now (null: none),
 * for the recipients of several events at once (`n`: the event's place in the batch).
 */
const RECIPIENT_SETTINGS = `
  SELECT r.n, r.user_id, p.topics,
         (SELECT max(m.ends_at) FROM mutes m
           WHERE m.user_id = r.user_id AND m.starts_at <= now() AND m.ends_at > now()
             AND (m.workspace_id IS NULL OR m.workspace_id = r.workspace_id)) AS held_until
    FROM unnest($1::int[], $2::uuid[], $3::uuid[]) AS r(n, user_id, workspace_id)
    LEFT JOIN preferences p ON p.user_id = r.user_id`;

/** How long an event's read or write waits for other events' before its statement (a burst's arrive a few ms apart). */
const GATHER_MS = 5;

/** New items only: a redelivered event conflicts on (event_id, user_id) and returns nothing, so no second mail. */
const INSERT_ITEMS = `
  INSERT INTO notifications (id, event_id, user_id, topic, workspace_id, organization_id, title, body, link, in_app, digest_pending,
                             created_at)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::uuid[], $6::uuid[], $7::text[], $8::text[], $9::text[],
                       $10::boolean[], $11::boolean[], $12::timestamptz[])
  ON CONFLICT ON CONSTRAINT notifications_event_user_key DO NOTHING
  RETURNING id`;

interface RecipientSettings {
  n: number;
  user_id: string;
  topics: Record<string, TopicPreference> | null;
  held_until: Date | null;
}

/** One event's recipients, whose settings are read with those of the events beside it. */
interface SettingsAsked {
  recipients: string[];
  workspaceId: string | null;
}

/** One event's items, ready to be written. */
interface ItemsOfEvent {
  eventId: string;
  topic: string;
  message: OutgoingNotification;
  items: Array<{ id: string; userId: string; inApp: boolean; email: string; createdAt: Date }>;
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
  /**
   * Every published rendition comes through here (the scheduler's burst, docs/performance.md): the events handled
   * while one read or write runs go together in the next, in one statement (and their acknowledgements in one write to
   * NATS). A statement that fails is run again for each event alone, so one event's bad value fails only that event.
   */
  private readonly settingsReads = new KeyedBatches<SettingsAsked, RecipientSettings[]>(
    (_key, asked) => togetherOrEachAlone(asked, (some) => this.readSettings(some)),
    GATHER_MS,
  );
  private readonly itemWrites = new KeyedBatches<ItemsOfEvent, number>(
    (_key, events) =>
      togetherOrEachAlone(events, (some) => this.insertItems(this.dataSource.manager, some).then((made) => made.map((ids) => ids.length))),
    GATHER_MS,
  );

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
    // The settings are read before any write: an event that makes no immediate mail is one INSERT, atomic by itself.
    const settings = await this.settingsReads.add('', { recipients, workspaceId: message.workspaceId });
    const items: ItemsOfEvent['items'] = [];
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
    const event: ItemsOfEvent = { eventId, topic: definition.id, message, items };
    // The items and their mail rows together (a mail row names its item), or the items alone, with other events' items.
    if (!items.some((item) => item.email === 'immediate')) return this.itemWrites.add('', event);
    return this.dataSource.transaction(async (db) => {
      const [inserted] = await this.insertItems(db, [event]);
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
    });
  }

  /** The recipients' settings of each asked event, in the events' order. */
  private async readSettings(asked: SettingsAsked[]): Promise<RecipientSettings[][]> {
    const pairs = asked.flatMap(({ recipients, workspaceId }, n) => recipients.map((userId) => ({ n, userId, workspaceId })));
    const rows = await preparedQuery<RecipientSettings>(this.dataSource.manager, 'notifications.recipient-settings', RECIPIENT_SETTINGS, [
      pairs.map((pair) => pair.n),
      pairs.map((pair) => pair.userId),
      pairs.map((pair) => pair.workspaceId),
    ]);
    const byEvent = asked.map((): RecipientSettings[] => []);
    for (const row of rows) byEvent[row.n].push(row);
    return byEvent;
  }

  /** Writes the items of each event in one statement; answers, per event, the ids of its items that are new. */
  private async insertItems(db: EntityManager, events: ItemsOfEvent[]): Promise<string[][]> {
    const rows = events.flatMap(({ eventId, topic, message, items }) => items.map((item) => ({ eventId, topic, message, item })));
    const inserted = await preparedQuery<{ id: string }>(db, 'notifications.insert-items', INSERT_ITEMS, [
      rows.map(({ item }) => item.id),
      rows.map(({ eventId }) => eventId),
      rows.map(({ item }) => item.userId),
      rows.map(({ topic }) => topic),
      rows.map(({ message }) => message.workspaceId),
      rows.map(({ message }) => message.organizationId ?? null),
      rows.map(({ message }) => message.title),
      rows.map(({ message }) => message.body),
      rows.map(({ message }) => message.link),
      rows.map(({ item }) => item.inApp),
      rows.map(({ item }) => item.email === 'daily'),
      rows.map(({ item }) => item.createdAt.toISOString()),
    ]);
    const fresh = new Set(inserted.map((row) => row.id));
    return events.map(({ items }) => items.filter((item) => fresh.has(item.id)).map((item) => item.id));
  }
}
