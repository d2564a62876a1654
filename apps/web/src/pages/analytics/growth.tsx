import { unwrap } from '@social/sdk';
import { useState } from 'react';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import { accountsOf } from '../publications/publishing';

/** Accounts worth following, per connected account, from the stored recommendations. */
export function Growth() {
  const api = useApi();
  const { workspace, canEdit } = useWorkspace();
  const [actionError, setActionError] = useState<unknown>();
  const accounts = useQuery(workspace.id, (signal) => accountsOf(api, workspace.id, signal));
  const [chosen, setChosen] = useState('');
  const accountId = chosen || accounts.data?.[0]?.id || '';
  const growth = useQuery(accountId ? `${workspace.id}:${accountId}` : null, (signal) =>
    unwrap(api.GET('/growth', { params: { query: { workspace_id: workspace.id, account_id: accountId } }, signal })),
  );
  if (accounts.data?.length === 0) return null;
  /** Follow (queued at the network) or dismiss (never listed again); the list is read again either way. */
  const act = async (id: string, action: 'follow' | 'dismiss') => {
    setActionError(undefined);
    try {
      const options = { params: { path: { id } } };
      if (action === 'follow') await unwrap(api.POST('/growth/{id}/follow', options));
      else await unwrap(api.POST('/growth/{id}/dismiss', options));
    } catch (error) {
      setActionError(error);
    }
    growth.reload();
  };
  return (
    <section aria-labelledby="growth-title">
      <h2 id="growth-title">Growth recommendations</h2>
      <ProblemMessage error={accounts.error} />
      {accounts.data && accounts.data.length > 1 && (
        <label className="inline-field">
          For
          <select value={accountId} onChange={(event) => setChosen(event.target.value)}>
            {accounts.data.map((account) => (
              <option key={account.id} value={account.id}>
                {account.username} ({account.platform})
              </option>
            ))}
          </select>
        </label>
      )}
      <ProblemMessage error={growth.error} title="The recommendations could not be loaded." />
      <ProblemMessage error={actionError} title="That did not work." />
      {growth.loading && <Loading />}
      {growth.data && growth.data.items.length === 0 && (
        <p className="muted">
          No recommendation yet
          {growth.data.sync_state.error_message ? `: ${growth.data.sync_state.error_message}` : ' (they appear after the network is read).'}
        </p>
      )}
      <ul className="growth-list">
        {growth.data?.items.map((item) => (
          <li key={item.id}>
            <strong>{item.display_name || item.handle}</strong> <span className="muted">@{item.handle}</span>
            <br />
            <span className="muted">
              {item.followers_count.toLocaleString()} followers · {item.mutual_count} in common
              {item.signals.length > 0 && ` · ${item.signals.join(', ')}`}
            </span>
            {item.follow_state !== 'idle' && <span className="badge">{item.follow_state}</span>}
            {canEdit && item.follow_state === 'idle' && (
              <span className="actions">
                <button type="button" onClick={() => void act(item.id, 'follow')} aria-label={`Follow @${item.handle}`}>
                  Follow
                </button>
                <button type="button" onClick={() => void act(item.id, 'dismiss')} aria-label={`Dismiss @${item.handle}`}>
                  Dismiss
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
