import { unwrap } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { Field } from '../../ui/field';
import { formatBytes, formatDateTime } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';

/** The instance's users with their usage, newest first, searchable, a page at a time. */
export function Users() {
  const api = useApi();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const users = useQuery(`${search}:${page}`, (signal) =>
    unwrap(api.GET('/admin/users', { params: { query: { page, per_page: 25, ...(search ? { search } : {}) } }, signal })),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed.trim());
    setPage(1);
  };
  const data = users.data;
  return (
    <div className="panel">
      <h2>Users</h2>
      <form className="toolbar" onSubmit={submit} role="search">
        <Field label="Search by email or name" name="search" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <button type="submit">Search</button>
      </form>
      <ProblemMessage error={users.error} />
      {users.loading && !data && <Loading />}
      {data && (
        <>
          <p className="meta" role="status">
            {data.total} users{data.total_pages > 1 && `, page ${data.page} of ${data.total_pages}`}
          </p>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Users table">
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Joined</th>
                  <th scope="col">Last active</th>
                  <th scope="col">Workspaces</th>
                  <th scope="col">Publications</th>
                  <th scope="col">Media</th>
                </tr>
              </thead>
              <tbody>
                {data.users.map((user) => (
                  <tr key={user.id}>
                    <td>
                      {user.display_name || user.email}
                      {user.display_name && <div className="meta">{user.email}</div>}
                      {user.is_admin && <span className="badge">Admin</span>}
                    </td>
                    <td>{formatDateTime(user.created_at)}</td>
                    <td>{formatDateTime(user.last_active_at)}</td>
                    <td>{user.workspace_count}</td>
                    <td>{user.publication_count}</td>
                    <td>
                      {user.media_item_count} ({formatBytes(user.media_bytes)})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="toolbar" aria-label="Pages of users">
            <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>
            <button type="button" disabled={page >= data.total_pages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
