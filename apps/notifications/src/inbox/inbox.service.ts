import { Inject, Injectable } from '@nestjs/common';
import {
  ListNotificationsQuery,
  Notification,
  NotificationList,
  NOTIFICATIONS_PAGE_DEFAULT,
  NotificationUnreadCount,
} from '@social/contracts';
import { changedCount, CursorCodec, isCreatedAtPosition, preparedQuery, problems, SERVICE_CONFIG } from '@social/platform';
import { DataSource } from 'typeorm';
import type { NotificationsConfig } from '../config.js';

const NO_SUCH_NOTIFICATION = 'No such notification.';
const COLUMNS = `n.id, n.topic, n.workspace_id, n.title, n.body, n.link, n.created_at, n.read_at`;
/** Items a user sees: in-app ones whose time has come (a mute may hold one until it ends). */
const VISIBLE = `n.user_id = $1 AND n.in_app AND n.created_at <= now()`;

interface NotificationRow {
  id: string;
  topic: string;
  workspace_id: string | null;
  title: string;
  body: string;
  link: string;
  created_at: Date;
  read_at: Date | null;
}

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  topic: row.topic,
  workspace_id: row.workspace_id ?? '',
  title: row.title,
  body: row.body,
  link: row.link,
  created_at: row.created_at.toISOString(),
  read_at: row.read_at ? row.read_at.toISOString() : null,
});

/** The caller's in-app inbox; every statement is bound to the caller's user id, so another user's item is simply not there (404). */
@Injectable()
export class InboxService {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) config: NotificationsConfig,
  ) {
    this.cursors = CursorCodec.derive(config.SECRETS_KEY, 'notifications');
  }

  /** Newest first (created_at, then id), one index range scan per page; cursors are bound to the user and the unread filter. */
  async list(userId: string, query: ListNotificationsQuery): Promise<NotificationList> {
    const unread = query.unread === 'true';
    const filters = { user_id: userId, unread };
    const after = query.cursor ? this.cursors.decode(query.cursor, filters, isCreatedAtPosition) : undefined;
    const limit = query.limit ?? NOTIFICATIONS_PAGE_DEFAULT;
    const values: unknown[] = [userId];
    const conditions = [VISIBLE];
    if (unread) conditions.push('n.read_at IS NULL');
    if (after) conditions.push(`(n.created_at, n.id) < ($${values.push(after.at)}::timestamptz, $${values.push(after.id)}::uuid)`);
    const rows = await preparedQuery<NotificationRow>(
      this.dataSource,
      `notifications.inbox.${unread ? 'unread' : 'all'}.${after ? 'after' : 'first'}`,
      `SELECT ${COLUMNS} FROM notifications n WHERE ${conditions.join(' AND ')}
       ORDER BY n.created_at DESC, n.id DESC LIMIT $${values.push(limit + 1)}`,
      values,
    );
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      notifications: page.map(toNotification),
      next_cursor: more && last ? this.cursors.encode({ at: last.created_at.toISOString(), id: last.id }, filters) : '',
    };
  }

  /** Idempotent: an item already read keeps its first read_at. */
  async read(userId: string, id: string): Promise<void> {
    const affected = await changedCount(
      this.dataSource,
      `UPDATE notifications n SET read_at = coalesce(n.read_at, now()) WHERE n.id = $2 AND ${VISIBLE}`,
      [userId, id],
    );
    if (!affected) throw problems.notFound(NO_SUCH_NOTIFICATION);
  }

  async readAll(userId: string): Promise<void> {
    await this.dataSource.query(`UPDATE notifications n SET read_at = now() WHERE ${VISIBLE} AND n.read_at IS NULL`, [userId]);
  }

  async unreadCount(userId: string): Promise<NotificationUnreadCount> {
    const [row] = await preparedQuery<{ count: number }>(
      this.dataSource,
      'notifications.inbox.unread-count',
      `SELECT count(*)::int AS count FROM notifications n WHERE ${VISIBLE} AND n.read_at IS NULL`,
      [userId],
    );
    return { count: row.count };
  }
}
