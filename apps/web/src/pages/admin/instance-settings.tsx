import { unwrap, type Schema } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { formatDateTime } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';

type Setting = Schema<'InstanceSetting'>;
type SettingsAnswer = Schema<'InstanceSettingsResponse'>;

/** The instance settings registry by group: each saved on its own, or reset to the environment's or the default. */
export function InstanceSettings() {
  const api = useApi();
  const settings = useQuery('instance-settings', () => unwrap(api.GET('/admin/instance-settings')));
  const groups = [...new Set(settings.data?.settings.map((setting) => setting.group))];
  return (
    <div>
      <ProblemMessage error={settings.error} />
      {settings.loading && !settings.data && <Loading />}
      {settings.data?.requires_restart && (
        <p className="problem" role="status">
          Some saved settings take effect only after the services restart.
        </p>
      )}
      {groups.map((group) => (
        <div key={group} className="panel">
          <h2>{group}</h2>
          <ul className="rows">
            {settings.data?.settings
              .filter((setting) => setting.group === group)
              .map((setting) => (
                <SettingRow key={setting.key} setting={setting} onSaved={settings.setData} />
              ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

function SettingRow({ setting, onSaved }: { setting: Setting; onSaved(answer: SettingsAnswer): void }) {
  const api = useApi();
  // A secret's value never comes back: its input starts empty and sends only what is typed.
  const [value, setValue] = useState(setting.secret ? '' : setting.value);
  const save = useAction(async (change: { key: string; value?: string; unset?: true }) =>
    onSaved(await unwrap(api.PUT('/admin/instance-settings', { body: { settings: [change] } }))),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run({ key: setting.key, value });
  };
  const id = `setting-${setting.key}`;
  const source =
    setting.source === 'database'
      ? `saved here ${formatDateTime(setting.updated_at)}`
      : setting.source === 'environment'
        ? 'from the environment'
        : 'default';
  return (
    <li className="row">
      <form className="row-main stack" onSubmit={submit}>
        <div className="field">
          <label htmlFor={id}>{setting.label}</label>
          <SettingInput id={id} setting={setting} value={value} onChange={setValue} />
          <p className="hint">
            {setting.description} ({source}
            {setting.secret && setting.secret_configured && ', a secret is set'}
            {setting.requires_restart && ', takes effect after a restart'})
          </p>
          {!setting.editable && <p className="hint">Managed by {setting.managed_by || 'the environment'}: it cannot be changed here.</p>}
        </div>
        <ProblemMessage error={save.error} />
        {setting.editable && (
          <div className="row-actions">
            <button type="submit" disabled={save.pending} aria-label={`Save ${setting.label}`}>
              Save
            </button>
            {setting.database_override_configured && (
              <button
                type="button"
                disabled={save.pending}
                onClick={() => save.run({ key: setting.key, unset: true })}
                aria-label={`Reset ${setting.label}`}
              >
                Reset
              </button>
            )}
          </div>
        )}
      </form>
    </li>
  );
}

function SettingInput({ id, setting, value, onChange }: { id: string; setting: Setting; value: string; onChange(value: string): void }) {
  const disabled = !setting.editable;
  if (setting.type === 'boolean' || setting.type === 'enum') {
    const options =
      setting.type === 'boolean'
        ? [
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]
        : setting.options;
    return (
      <select id={id} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
        {setting.optional && <option value="">Not set</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  }
  const type = { secret: 'password', integer: 'number', url: 'url', email: 'email' }[setting.type as string] ?? 'text';
  return (
    <input
      id={id}
      type={type}
      value={value}
      disabled={disabled}
      autoComplete="off"
      placeholder={setting.secret && setting.secret_configured ? 'Set: type to replace' : undefined}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
