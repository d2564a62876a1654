import { unwrap } from '@social/sdk';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { formatBytes } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';

/** Instance-wide totals. */
export function Overview() {
  const api = useApi();
  const overview = useQuery('overview', () => unwrap(api.GET('/admin/overview')));
  const data = overview.data;
  const facts: [string, string | number][] = data
    ? [
        ['Users', data.total_users],
        ['New users, last 30 days', data.new_users_last_30_days],
        ['Organizations', data.total_organizations],
        ['Workspaces', data.total_workspaces],
        ['Publications', data.total_publications],
        ['Published, last 30 days', data.published_last_30_days],
        ['Media items', data.total_media_items],
        ['Media stored', formatBytes(data.total_media_bytes)],
        ['Video projects', data.total_video_projects],
        ['Image designs', data.total_image_designs],
      ]
    : [];
  return (
    <div className="panel">
      <h2>Overview</h2>
      <ProblemMessage error={overview.error} />
      {overview.loading && !data && <Loading />}
      {data && (
        <dl className="facts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {data && !data.usage_complete && <p className="meta">Some services did not answer: some counts may be missing.</p>}
    </div>
  );
}
