import { unwrap } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import '../../styles/manage.css';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field } from '../../ui/field';
import { formatDateTime } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { SelectField } from '../../ui/select-field';
import { EmptyState, Loading } from '../../ui/states';
import { useTenancy } from '../../workspace/workspace';

/** The person's API tokens: create (the secret is shown once), list, revoke. */
export default function ApiTokensPage() {
  const api = useApi();
  const { workspaces } = useTenancy();
  const tokens = useQuery('api-tokens', () => unwrap(api.GET('/api-tokens')));
  const [name, setName] = useState('');
  const [workspaceId, setWorkspaceId] = useState('');
  const [expires, setExpires] = useState('');
  const [secret, setSecret] = useState<{ name: string; token: string }>();
  const create = useAction(async () => {
    const body = {
      name: name.trim(),
      ...(workspaceId ? { workspace_id: workspaceId } : {}),
      ...(expires ? { expires_at: new Date(`${expires}T23:59:59`).toISOString() } : {}),
    };
    const created = await unwrap(api.POST('/api-tokens', { body }));
    setSecret({ name: created.item.name, token: created.token });
    setName('');
    tokens.reload();
  });
  const revoke = useAction(async (id: string) => {
    await unwrap(api.DELETE('/api-tokens/{id}', { params: { path: { id } } }));
    tokens.reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSecret(undefined);
    void create.run();
  };
  const workspaceName = (id: string) => workspaces.find((workspace) => workspace.id === id)?.name ?? 'another workspace';

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">API tokens</h1>
      <p className="meta">A token acts as you in scripts and tools. Keep it secret; revoke it when it is no longer needed.</p>
      <form className="panel toolbar" onSubmit={submit} aria-label="Create a token">
        <Field
          label="Name"
          name="name"
          required
          maxLength={100}
          value={name}
          error={create.error}
          onChange={(e) => setName(e.target.value)}
        />
        <SelectField
          label="Works in"
          name="workspace_id"
          value={workspaceId}
          error={create.error}
          onChange={(e) => setWorkspaceId(e.target.value)}
        >
          <option value="">Every workspace you belong to</option>
          {workspaces.map((workspace) => (
            <option key={workspace.id} value={workspace.id}>
              Only {workspace.name}
            </option>
          ))}
        </SelectField>
        <Field
          label="Expires on"
          name="expires_at"
          type="date"
          hint="Empty: never"
          value={expires}
          error={create.error}
          onChange={(e) => setExpires(e.target.value)}
        />
        <button type="submit" className="primary" disabled={create.pending}>
          Create token
        </button>
        <ProblemMessage error={create.error} />
      </form>
      {secret && (
        <div className="secret" role="status">
          <p>
            The token <strong>{secret.name}</strong> was created. Copy it now: it is never shown again.
          </p>
          <code aria-label="The new token">{secret.token}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(secret.token)}>
            Copy
          </button>
        </div>
      )}
      <ProblemMessage error={tokens.error ?? revoke.error} />
      {tokens.loading && !tokens.data && <Loading />}
      {tokens.data?.api_tokens.length === 0 && <EmptyState title="No API tokens" />}
      <ul className="rows" aria-label="Tokens">
        {tokens.data?.api_tokens.map((token) => (
          <li key={token.id} className="row">
            <div className="row-main">
              <p>
                <strong>{token.name}</strong>
              </p>
              <p className="meta">
                {token.workspace_id ? `Only ${workspaceName(token.workspace_id)}` : 'Every workspace'} · created{' '}
                {formatDateTime(token.created_at)} · last used {token.last_used_at ? formatDateTime(token.last_used_at) : 'never'} ·
                {token.expires_at ? ` expires ${formatDateTime(token.expires_at)}` : ' never expires'}
              </p>
            </div>
            <ConfirmButton confirmLabel={`Confirm: revoke the token ${token.name}`} onConfirm={() => revoke.run(token.id)}>
              Revoke
            </ConfirmButton>
          </li>
        ))}
      </ul>
    </section>
  );
}
