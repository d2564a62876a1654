import './accounts.css';
import { unwrap, type Schema } from '@social/sdk';
import { useState } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { networkName, type Network } from '../../ui/networks';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState, Loading } from '../../ui/states';
import { useWorkspace } from '../../workspace/workspace';
import { ConnectForm } from './connect-form';

type SocialAccount = Schema<'SocialAccount'>;

/** The workspace's connected accounts: which need attention, connect, reconnect, disconnect. */
export default function AccountsPage() {
  const api = useApi();
  const { workspace, canEdit } = useWorkspace();
  const accounts = useQuery(workspace.id, () =>
    unwrap(api.GET('/social-accounts', { params: { query: { workspace_id: workspace.id } } })).then((answer) => answer.accounts),
  );
  const [reconnecting, setReconnecting] = useState<SocialAccount | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const list = accounts.data ?? [];
  const attention = list.filter((account) => account.status === 'reconnect_required');

  const connected = (account: SocialAccount) => {
    accounts.setData([account, ...list.filter((item) => item.id !== account.id)]);
    setReconnecting(null);
    setAnnouncement(`Connected ${label(account)} on ${networkName(account.platform)}.`);
  };
  const disconnected = (account: SocialAccount) => {
    accounts.setData(list.filter((item) => item.id !== account.id));
    setAnnouncement(`Disconnected ${label(account)}.`);
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Accounts</h1>
      <p role="status" className="announcement">
        {announcement}
      </p>
      <ProblemMessage error={accounts.error} title="The accounts could not be loaded." />
      {attention.length > 0 && (
        <div className="attention" role="note">
          <p>
            <strong>{attention.length === 1 ? '1 account needs attention' : `${attention.length} accounts need attention`}</strong>: the
            network no longer accepts our access. Reconnect to keep publishing there.
          </p>
        </div>
      )}
      {accounts.loading && !accounts.data && <Loading label="Loading accounts…" />}
      {accounts.data && list.length === 0 && (
        <EmptyState title="No account is connected yet.">
          <p>{canEdit ? 'Connect one below; the Sandbox network lets you try everything without a real account.' : ''}</p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <ul className="account-list" aria-label="Connected accounts">
          {list.map((account) => (
            <AccountItem
              key={account.id}
              account={account}
              canEdit={canEdit}
              onReconnect={() => setReconnecting(account)}
              onDisconnected={disconnected}
            />
          ))}
        </ul>
      )}
      {canEdit ? (
        <div className="panel">
          <ConnectForm
            key={reconnecting?.id ?? 'new'}
            workspaceId={workspace.id}
            initial={reconnecting ? { network: reconnecting.platform as Network, username: reconnecting.username } : undefined}
            onConnected={connected}
          />
        </div>
      ) : (
        <p className="hint">You can see this workspace&apos;s accounts; connecting and disconnecting needs the editor or admin role.</p>
      )}
    </section>
  );
}

function label(account: SocialAccount): string {
  return account.display_name || `@${account.username}`;
}

function AccountItem({
  account,
  canEdit,
  onReconnect,
  onDisconnected,
}: {
  account: SocialAccount;
  canEdit: boolean;
  onReconnect: () => void;
  onDisconnected: (account: SocialAccount) => void;
}) {
  const api = useApi();
  const [confirming, setConfirming] = useState(false);
  const disconnect = useAction(() => unwrap(api.DELETE('/social-accounts/{id}', { params: { path: { id: account.id } } })));
  const needsAttention = account.status === 'reconnect_required';
  return (
    <li className={needsAttention ? 'account attention-item' : 'account'}>
      {account.avatar_url ? <img src={account.avatar_url} alt="" className="avatar" /> : <span className="avatar" aria-hidden="true" />}
      <div className="account-text">
        <p className="account-name">{label(account)}</p>
        <p className="hint">
          {networkName(account.platform)} · @{account.username}
          {needsAttention && <span className="badge warning">Needs reconnecting</span>}
        </p>
      </div>
      {canEdit && (
        <div className="account-actions">
          {needsAttention && (
            <button type="button" onClick={onReconnect}>
              Reconnect
            </button>
          )}
          {confirming ? (
            <>
              <button
                type="button"
                className="danger"
                disabled={disconnect.pending}
                onClick={async () => (await disconnect.run()).ok && onDisconnected(account)}
              >
                Yes, disconnect {label(account)}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirming(true)} aria-label={`Disconnect ${label(account)}`}>
              Disconnect
            </button>
          )}
        </div>
      )}
      <ProblemMessage error={disconnect.error} />
    </li>
  );
}
