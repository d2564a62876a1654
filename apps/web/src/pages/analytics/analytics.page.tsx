import { unwrap, type Schema } from '@social/sdk';
import { useCallback, useState } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { Link } from '../../router/router';
import { useApi } from '../../session/session';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState, Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import { BarChart, LineChart } from './charts';
import { Growth } from './growth';
import './analytics.css';

type Overview = Schema<'AnalyticsOverview'>;
const RANGES = [7, 30, 90] as const;
const number = (value: number) => value.toLocaleString(undefined, { maximumFractionDigits: 1 });
const signed = (value: number) => (value > 0 ? `+${number(value)}` : number(value));

/** Followers over time, engagement, the top posts and growth recommendations, from the stored analytics. */
export default function AnalyticsPage() {
  const api = useApi();
  const { workspace, canEdit } = useWorkspace();
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const overview = useQuery(`${workspace.id}:${days}`, (signal) =>
    unwrap(api.GET('/analytics', { params: { query: { workspace_id: workspace.id, days, sort: 'engagement', limit: 10 } }, signal })),
  );
  const refresh = useAction(
    useCallback(async () => {
      await unwrap(api.POST('/analytics/refresh', { body: { workspace_id: workspace.id } }));
    }, [api, workspace.id]),
  );
  const data = overview.data;
  return (
    <section className="page analytics-page" aria-labelledby="page-title">
      <div className="page-heading">
        <h1 id="page-title">Analytics</h1>
        <div className="actions">
          <label className="inline-field">
            Period
            <select value={days} onChange={(event) => setDays(Number(event.target.value) as (typeof RANGES)[number])}>
              {RANGES.map((range) => (
                <option key={range} value={range}>
                  Last {range} days
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => overview.reload()} disabled={overview.loading}>
            Reload
          </button>
          {canEdit && (
            <button type="button" onClick={() => void refresh.run().then(() => overview.reload())} disabled={refresh.pending}>
              {refresh.pending ? 'Asking the networks…' : 'Fetch new numbers'}
            </button>
          )}
        </div>
      </div>
      <ProblemMessage error={refresh.error} title="New numbers could not be requested." />
      <ProblemMessage error={overview.error} title="The analytics could not be loaded." />
      {overview.loading && !data && <Loading />}
      {data && <OverviewView data={data} />}
      <Growth />
    </section>
  );
}

function OverviewView({ data }: { data: Overview }) {
  const { summary } = data;
  if (data.accounts.length === 0) {
    return (
      <EmptyState title="No account to measure yet.">
        <p>
          <Link href="/accounts">Connect an account</Link> and publish to it.
        </p>
      </EmptyState>
    );
  }
  const top = [...data.publications].sort((a, b) => b.engagement - a.engagement).slice(0, 10);
  return (
    <>
      <p className="muted">
        {data.last_synced_at ? `Numbers from ${new Date(data.last_synced_at).toLocaleString()}.` : 'The networks have not been asked yet.'}
      </p>
      <dl className="summary">
        <Metric label="Followers" value={summary.followers.value} delta={summary.followers.delta} />
        <Metric label="Views" value={summary.views.value} delta={summary.views.delta} />
        <Metric label="Engagement" value={summary.engagement.value} delta={summary.engagement.delta} />
        <Metric label="Posts published" value={summary.published} />
      </dl>
      <div className="charts">
        <LineChart title="Followers over time" points={data.trends.followers.map((point) => ({ label: point.date, value: point.value }))} />
        <BarChart
          title="Engagement by day (likes, comments, reposts)"
          points={data.trends.engagement.map((point) => ({ label: point.date, value: point.value }))}
        />
      </div>
      <h2>Top posts</h2>
      {top.length === 0 ? (
        <p className="muted">No post of this period has numbers yet.</p>
      ) : (
        <table className="top-posts">
          <thead>
            <tr>
              <th scope="col">Post</th>
              <th scope="col">Engagement</th>
              <th scope="col">Views</th>
              <th scope="col">Likes</th>
            </tr>
          </thead>
          <tbody>
            {top.map((post) => (
              <tr key={post.publication_id}>
                <td>
                  <Link href={`/publications/${post.publication_id}`}>{post.title || post.excerpt || 'Untitled'}</Link>
                </td>
                <td>{number(post.engagement)}</td>
                <td>{number(post.metrics.views ?? 0)}</td>
                <td>{number(post.metrics.likes ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data.insights
        .filter((insight) => insight.status === 'available')
        .map((insight) => (
          <p key={insight.kind + insight.account_id} className="insight">
            Most engagement: @{insight.username} on {insight.platform} ({number(insight.value)} {insight.metric}).
          </p>
        ))}
    </>
  );
}

function Metric({ label, value, delta }: { label: string; value: number; delta?: number }) {
  return (
    <div className="metric">
      <dt>{label}</dt>
      <dd>
        <span className="metric-value">{number(value)}</span>
        {delta !== undefined && <span className="muted"> ({signed(delta)} over the period)</span>}
      </dd>
    </div>
  );
}
