import { unwrap } from '@social/sdk';
import { useState } from 'react';
import { useQuery } from '../../api/use-query';
import { Link } from '../../router/router';
import { useApi } from '../../session/session';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState, Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import {
  formatTime,
  publicationName,
  publicationTime,
  STATUS_LABELS,
  StatusBadge,
  type Publication,
  type PublicationStatus,
} from './publishing';
import './publishing.css';

/** Every publication of the workspace, newest first, a page at a time, optionally of one status. */
export default function PublicationsPage() {
  const api = useApi();
  const { workspace, canEdit } = useWorkspace();
  const [status, setStatus] = useState<PublicationStatus | ''>('');
  const [pages, setPages] = useState<string[]>(['']);
  const cursor = pages[pages.length - 1];
  const list = useQuery(`${workspace.id}:${status}:${cursor}`, (signal) =>
    unwrap(
      api.GET('/publications', {
        params: { query: { workspace_id: workspace.id, limit: 25, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } },
        signal,
      }),
    ),
  );
  const publications: Publication[] = list.data?.publications ?? [];
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-heading">
        <h1 id="page-title">Publications</h1>
        {canEdit && (
          <Link className="button primary" href="/compose">
            New post
          </Link>
        )}
      </div>
      <div className="field inline-field">
        <label htmlFor="status-filter">Status</label>
        <select
          id="status-filter"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as PublicationStatus | '');
            setPages(['']);
          }}
        >
          <option value="">All</option>
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <ProblemMessage error={list.error} title="The publications could not be loaded." />
      {list.loading && <Loading />}
      {!list.loading && !list.error && publications.length === 0 && <EmptyState title="No publications here yet." />}
      {publications.length > 0 && (
        <ul className="publication-list">
          {publications.map((publication) => (
            <li key={publication.id}>
              <Link href={`/publications/${publication.id}`}>{publicationName(publication)}</Link>{' '}
              <StatusBadge status={publication.status} />
              <span className="muted">
                {' '}
                {formatTime(publicationTime(publication))} · {publication.renditions.length} account
                {publication.renditions.length === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="actions">
        {pages.length > 1 && (
          <button type="button" onClick={() => setPages(pages.slice(0, -1))}>
            Newer
          </button>
        )}
        {list.data?.next_cursor && (
          <button type="button" onClick={() => setPages([...pages, list.data!.next_cursor])}>
            Older
          </button>
        )}
      </div>
    </section>
  );
}
