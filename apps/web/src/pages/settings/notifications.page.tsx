import { unwrap, type Schema } from '@social/sdk';
import { useEffect, useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import '../../styles/manage.css';
import { Field } from '../../ui/field';
import { formatDateTime, humanize } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { SelectField } from '../../ui/select-field';
import { Loading } from '../../ui/states';
import { useTenancy } from '../../workspace/workspace';

type Settings = Schema<'PreferenceSettings'>;
type TopicPreference = Schema<'TopicPreference'>;

const FREQUENCY_LABELS: Record<TopicPreference['email_frequency'], string> = {
  off: 'No email',
  immediate: 'Email at once',
  daily: 'In the daily digest',
};

/** What the person hears about, where and when; and their mutes. */
export default function NotificationsPage() {
  const api = useApi();
  const settings = useQuery('preferences', () => unwrap(api.GET('/notifications/preferences')));
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Notification preferences</h1>
      <ProblemMessage error={settings.error} />
      {settings.loading && !settings.data && <Loading />}
      {settings.data && <PreferencesForm settings={settings.data} onSaved={settings.setData} />}
      {settings.data && <Mutes />}
    </section>
  );
}

function PreferencesForm({ settings, onSaved }: { settings: Settings; onSaved(settings: Settings): void }) {
  const api = useApi();
  const [preferences, setPreferences] = useState(settings.preferences as Record<string, TopicPreference>);
  const [digestTime, setDigestTime] = useState(settings.digest_time);
  const [digestZone, setDigestZone] = useState(settings.digest_timezone);
  const [saved, setSaved] = useState(false);
  useEffect(() => setPreferences(settings.preferences as Record<string, TopicPreference>), [settings]);
  const save = useAction(async () => {
    const body = { preferences, digest_time: digestTime, digest_timezone: digestZone };
    onSaved(await unwrap(api.PUT('/notifications/preferences', { body })));
    setSaved(true);
  });
  const change = (topic: string, next: Partial<TopicPreference>) => {
    setSaved(false);
    setPreferences((all) => ({ ...all, [topic]: { ...all[topic], ...next } }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <form className="panel stack" onSubmit={submit}>
      <h2>Topics</h2>
      <p className="meta">
        Emails go to {settings.email_address}
        {!settings.email_available && ' once it is verified'}. Some topics cannot be turned off: they concern your account&apos;s safety or
        a delivery that failed.
      </p>
      <ul className="rows">
        {settings.topic_definitions.map((topic) => {
          const preference = preferences[topic.id] ?? topic.default_preference;
          const name = humanize(topic.id);
          return (
            <li key={topic.id} className="row">
              <div className="row-main">
                <p>
                  <strong>{name}</strong>
                </p>
                <p className="meta">{humanize(topic.group)}</p>
              </div>
              <div className="row-actions">
                <label className="check">
                  <input
                    type="checkbox"
                    checked={preference.in_app}
                    disabled={!topic.in_app_mutable}
                    onChange={(event) => change(topic.id, { in_app: event.target.checked })}
                  />
                  In the app<span className="visually-hidden">: {name}</span>
                </label>
                <SelectField
                  label={`Email: ${name}`}
                  name={`preferences.${topic.id}.email_frequency`}
                  value={preference.email_frequency}
                  disabled={!topic.email_mutable}
                  error={save.error}
                  onChange={(event) => change(topic.id, { email_frequency: event.target.value as TopicPreference['email_frequency'] })}
                >
                  {topic.email_frequencies.map((frequency) => (
                    <option key={frequency} value={frequency}>
                      {FREQUENCY_LABELS[frequency]}
                    </option>
                  ))}
                </SelectField>
              </div>
            </li>
          );
        })}
      </ul>
      <div className="toolbar">
        <Field
          label="Daily digest at"
          name="digest_time"
          type="time"
          value={digestTime}
          error={save.error}
          onChange={(e) => setDigestTime(e.target.value)}
        />
        <Field
          label="Time zone"
          name="digest_timezone"
          value={digestZone}
          hint="For example Europe/Paris"
          error={save.error}
          onChange={(e) => setDigestZone(e.target.value)}
        />
      </div>
      <ProblemMessage error={save.error} />
      <div className="row-actions">
        <button type="submit" className="primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : 'Save preferences'}
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
    </form>
  );
}

/** Quiet periods, everywhere or in one workspace; critical topics still come through. */
function Mutes() {
  const api = useApi();
  const { workspaces } = useTenancy();
  const mutes = useQuery('mutes', () => unwrap(api.GET('/notifications/mutes')));
  const [scope, setScope] = useState('');
  const [until, setUntil] = useState('');
  const create = useAction(async () => {
    const body = { starts_at: new Date().toISOString(), ends_at: new Date(until).toISOString(), ...(scope ? { workspace_id: scope } : {}) };
    await unwrap(api.POST('/notifications/mutes', { body }));
    setUntil('');
    mutes.reload();
  });
  const remove = useAction(async (id: string) => {
    await unwrap(api.DELETE('/notifications/mutes/{id}', { params: { path: { id } } }));
    mutes.reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <div className="panel">
      <h2>Mutes</h2>
      <ProblemMessage error={mutes.error ?? remove.error} />
      {mutes.data?.mutes.length === 0 && <p className="meta">Nothing is muted.</p>}
      <ul className="rows">
        {mutes.data?.mutes.map((mute) => (
          <li key={mute.id} className="row">
            <div className="row-main">
              <p>{mute.scope === 'workspace' ? `Workspace ${mute.workspace_name}` : 'Every workspace'}</p>
              <p className="meta">
                {formatDateTime(mute.starts_at)} to {formatDateTime(mute.ends_at)}
              </p>
            </div>
            <button type="button" onClick={() => remove.run(mute.id)} aria-label={`Remove the mute until ${formatDateTime(mute.ends_at)}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form className="toolbar" onSubmit={submit}>
        <SelectField label="Mute" name="workspace_id" value={scope} error={create.error} onChange={(e) => setScope(e.target.value)}>
          <option value="">Every workspace</option>
          {workspaces.map((workspace) => (
            <option key={workspace.id} value={workspace.id}>
              {workspace.name}
            </option>
          ))}
        </SelectField>
        <Field
          label="Until"
          name="ends_at"
          type="datetime-local"
          required
          value={until}
          error={create.error}
          onChange={(e) => setUntil(e.target.value)}
        />
        <button type="submit" disabled={create.pending}>
          Mute
        </button>
      </form>
      <ProblemMessage error={create.error} />
    </div>
  );
}
