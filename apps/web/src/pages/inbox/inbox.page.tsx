import { unwrap, type Schema } from '@social/sdk';
import { useState } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { Link } from '../../router/router';
import { useApi } from '../../session/session';
import '../../styles/manage.css';
import { formatDateTime } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState, Loading } from '../../ui/states';

type Notification = Schema<'Notification'>;

const PAGE_SIZE = 20;

/** The person's in-app notifications, newest first, a page at a time; unread ones stand out and can be marked read. */
export default function InboxPage() {
  const api = useApi();
  const [unreadOnly, setUnreadOnly] = useState(false);
  // The cursors of the pages before the one shown, so "Newer" can go back.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1) ?? '';
  const list = useQuery(`${unreadOnly}:${cursor}`, (signal) =>
    unwrap(
      api.GET('/notifications', {
        params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(unreadOnly ? { unread: 'true' as const } : {}) } },
        signal,
      }),
    ),
  );
  const unread = useQuery('unread', () => unwrap(api.GET('/notifications/unread-count')));
  const refresh = () => {
    list.reload();
    unread.reload();
  };
  const readOne = useAction(async (id: string) => {
    await unwrap(api.POST('/notifications/{id}/read', { params: { path: { id } } }));
    refresh();
  });
  const readAll = useAction(async () => {
    await unwrap(api.POST('/notifications/read-all'));
    refresh();
  });
  const notifications = list.data?.notifications ?? [];

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Inbox</h1>
      <div className="toolbar">
        <p className="meta" role="status">
          {unread.data ? `${unread.data.count} unread` : ''}
        </p>
        <label className="check">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(event) => {
              setUnreadOnly(event.target.checked);
              setCursors([]);
            }}
          />
          Only unread
        </label>
        <button type="button" onClick={() => readAll.run()} disabled={readAll.pending || unread.data?.count === 0}>
          Mark all read
        </button>
        <Link href="/settings/notifications">Notification preferences</Link>
      </div>
      <ProblemMessage error={list.error ?? unread.error} />
      <ProblemMessage error={readOne.error ?? readAll.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && notifications.length === 0 && (
        <EmptyState title={unreadOnly ? 'Nothing unread' : 'No notifications yet'}>
          <p>Published and failed posts, accounts that need attention and invitations appear here.</p>
        </EmptyState>
      )}
      <ul className="rows" aria-label="Notifications">
        {notifications.map((item) => (
          <NotificationRow key={item.id} item={item} onRead={() => readOne.run(item.id)} pending={readOne.pending} />
        ))}
      </ul>
      <nav className="toolbar" aria-label="Pages of notifications">
        {cursors.length > 0 && (
          <button type="button" onClick={() => setCursors((list) => list.slice(0, -1))}>
            Newer
          </button>
        )}
        {list.data?.next_cursor && (
          <button type="button" onClick={() => setCursors((previous) => [...previous, list.data?.next_cursor ?? ''])}>
            Older
          </button>
        )}
      </nav>
    </section>
  );
}

function NotificationRow({ item, onRead, pending }: { item: Notification; onRead(): void; pending: boolean }) {
  const unread = !item.read_at;
  // Links are the console's own paths (or absolute addresses the API gave): open them as they are.
  const link = item.link && (item.link.startsWith('/') ? <Link href={item.link}>Open</Link> : <a href={item.link}>Open</a>);
  return (
    <li className={`row notification${unread ? ' unread' : ''}`}>
      <div className="row-main">
        <p>
          <strong>{item.title}</strong> {unread && <span className="badge">Unread</span>}
        </p>
        {item.body && <p>{item.body}</p>}
        <p className="meta">{formatDateTime(item.created_at)}</p>
      </div>
      <div className="row-actions">
        {link}
        {unread && (
          <button type="button" onClick={onRead} disabled={pending} aria-label={`Mark read: ${item.title}`}>
            Mark read
          </button>
        )}
      </div>
    </li>
  );
}
