import { unwrap, type Schema } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field } from '../../ui/field';
import { humanize } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { SelectField } from '../../ui/select-field';
import { EmptyState, Loading } from '../../ui/states';

type SaveRequest = Schema<'SaveProviderAppRequest'>;
type Provider = SaveRequest['provider'];

const PROVIDERS: Provider[] = [
  'x',
  'mastodon',
  'bluesky',
  'linkedin',
  'threads',
  'facebook',
  'instagram',
  'tiktok',
  'youtube',
  'discord',
  'telegram',
];
const EMPTY = { client_id: '', client_secret: '', name: '', redirect_uri: '', instance_url: '', bot_token: '' };

/** The networks' app credentials: from the environment (read only) or saved here (secrets write-only). */
export function ProviderApps() {
  const api = useApi();
  const apps = useQuery('provider-apps', () => unwrap(api.GET('/admin/provider-apps')));
  const [provider, setProvider] = useState<Provider>('x');
  const [fields, setFields] = useState(EMPTY);
  const [saved, setSaved] = useState('');
  const save = useAction(async () => {
    // Empty members stay out: a secret left empty keeps the stored one.
    const filled = Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim() !== ''));
    const answer = await unwrap(api.POST('/admin/provider-apps', { body: { provider, client_id: fields.client_id, ...filled } }));
    const restart = answer.requires_restart ? '; restart the services to use it' : '';
    setSaved(`${humanize(answer.app.provider)} ${answer.existed ? 'updated' : 'added'}${restart}.`);
    setFields(EMPTY);
    apps.reload();
  });
  const remove = useAction(async (id: string) => {
    await unwrap(api.DELETE('/admin/provider-apps/{id}', { params: { path: { id } } }));
    apps.reload();
  });
  const set = (name: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setFields((all) => ({ ...all, [name]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved('');
    void save.run();
  };
  return (
    <div>
      <div className="panel">
        <h2>Provider apps</h2>
        <ProblemMessage error={apps.error ?? remove.error} />
        {apps.loading && !apps.data && <Loading />}
        {apps.data?.length === 0 && <EmptyState title="No provider app is configured" />}
        <ul className="rows" aria-label="Provider apps">
          {apps.data?.map((app) => (
            <li key={app.id} className="row">
              <div className="row-main">
                <p>
                  <strong>{app.name || humanize(app.provider)}</strong> <span className="badge">{app.source}</span>{' '}
                  {!app.is_active && <span className="badge warning">Inactive</span>}
                  {app.shadowed_by_environment && <span className="badge warning">Overridden by the environment</span>}
                </p>
                <p className="meta">
                  {humanize(app.provider)} · {app.connection_mode} · client {app.client_id || '—'}
                  {app.instance_url && ` · ${app.instance_url}`} · secret {app.secret_configured ? 'set' : 'not set'}
                </p>
              </div>
              {app.deletable && (
                <ConfirmButton confirmLabel={`Confirm: delete the ${app.provider} app`} onConfirm={() => remove.run(app.id)}>
                  Delete
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      </div>
      <form className="panel stack" onSubmit={submit} aria-label="Add or update a provider app">
        <h2>Add or update a provider app</h2>
        <p className="meta">One app per network (and per instance for Mastodon): saving again updates it. Secrets are never shown back.</p>
        <SelectField
          label="Network"
          name="provider"
          value={provider}
          error={save.error}
          onChange={(e) => setProvider(e.target.value as Provider)}
        >
          {PROVIDERS.map((item) => (
            <option key={item} value={item}>
              {humanize(item)}
            </option>
          ))}
        </SelectField>
        <Field label="Client ID" name="client_id" value={fields.client_id} error={save.error} onChange={set('client_id')} />
        <Field
          label="Client secret"
          name="client_secret"
          type="password"
          autoComplete="off"
          value={fields.client_secret}
          error={save.error}
          onChange={set('client_secret')}
        />
        <Field label="Name" name="name" value={fields.name} error={save.error} onChange={set('name')} />
        <Field
          label="Redirect URI"
          name="redirect_uri"
          type="url"
          value={fields.redirect_uri}
          error={save.error}
          onChange={set('redirect_uri')}
        />
        <Field
          label="Instance URL (Mastodon)"
          name="instance_url"
          type="url"
          value={fields.instance_url}
          error={save.error}
          onChange={set('instance_url')}
        />
        <Field
          label="Bot token (Discord, Telegram)"
          name="bot_token"
          type="password"
          autoComplete="off"
          value={fields.bot_token}
          error={save.error}
          onChange={set('bot_token')}
        />
        <ProblemMessage error={save.error} />
        <div className="row-actions">
          <button type="submit" className="primary" disabled={save.pending}>
            Save app
          </button>
          <span role="status">{saved}</span>
        </div>
      </form>
    </div>
  );
}
