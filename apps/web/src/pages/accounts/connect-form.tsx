import { unwrap, type Schema } from '@social/sdk';
import { useId, useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useApi } from '../../session/session';
import { Field } from '../../ui/field';
import { NETWORK_NAMES, type Network } from '../../ui/networks';
import { ProblemMessage } from '../../ui/problem-message';

type SocialAccount = Schema<'SocialAccount'>;
type ConnectRequest = Schema<'ConnectSocialAccountRequest'>;

/** What each network asks for (contract §4): the networks without a form here connect through their OAuth page. */
const FORMS: Partial<Record<Network, { name: keyof ConnectRequest; label: string; type?: string; required?: boolean; hint?: string }[]>> = {
  sandbox: [{ name: 'username', label: 'Handle', hint: 'Optional: a name for the simulated account.' }],
  bluesky: [
    { name: 'username', label: 'Handle', required: true, hint: 'For example alice.bsky.social.' },
    { name: 'app_password', label: 'App password', type: 'password', required: true, hint: 'Bluesky: Settings → App passwords.' },
    { name: 'instance_url', label: 'Server address', type: 'url', hint: 'Only for a self-hosted server; otherwise https://bsky.social.' },
  ],
  mastodon: [{ name: 'instance_url', label: 'Server address', type: 'url', required: true, hint: 'For example https://mastodon.social.' }],
  discord: [
    {
      name: 'webhook_url',
      label: 'Channel webhook address',
      type: 'url',
      required: true,
      hint: 'Discord: Channel settings → Integrations → Webhooks → Copy webhook URL.',
    },
  ],
  telegram: [
    {
      name: 'chat_id',
      label: 'Channel or group',
      required: true,
      hint: "Its numeric id (-100…) or a public channel's @username. The instance's bot must be an administrator there.",
    },
  ],
};

/**
 * Connects an account: networks with a form connect at once (the new account is handed to `onConnected`); OAuth
 * networks send the person to the network, which sends them back to the callback page.
 */
export function ConnectForm({
  workspaceId,
  initial,
  onConnected,
}: {
  workspaceId: string;
  initial?: { network: Network; username?: string };
  onConnected: (account: SocialAccount) => void;
}) {
  const api = useApi();
  const id = useId();
  const [network, setNetwork] = useState<Network>(initial?.network ?? 'sandbox');
  const [values, setValues] = useState<Record<string, string>>(initial?.username ? { username: initial.username } : {});
  const fields = FORMS[network] ?? [];
  const connect = useAction(async () => {
    const filled = Object.fromEntries(fields.map((field) => [field.name, values[field.name]?.trim() ?? '']).filter(([, value]) => value));
    const body = { workspace_id: workspaceId, provider: network, ...filled } as ConnectRequest;
    const answer = await unwrap(api.POST('/social-accounts/connect', { body }));
    if ('authorization_url' in answer) {
      window.location.assign(answer.authorization_url);
      return undefined;
    }
    return answer as SocialAccount;
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await connect.run();
    if (done.ok && done.value) {
      setValues({});
      onConnected(done.value);
    }
  };
  return (
    <form onSubmit={submit} className="stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Connect an account</h2>
      <ProblemMessage error={connect.error} />
      <div className="field">
        <label htmlFor={`${id}-network`}>Network</label>
        <select
          id={`${id}-network`}
          value={network}
          onChange={(event) => {
            setNetwork(event.target.value as Network);
            connect.reset();
          }}
        >
          {(Object.keys(NETWORK_NAMES) as Network[]).map((key) => (
            <option key={key} value={key}>
              {NETWORK_NAMES[key]}
            </option>
          ))}
        </select>
      </div>
      {fields.map((field) => (
        <Field
          key={`${network}-${field.name}`}
          label={field.label}
          name={field.name}
          type={field.type ?? 'text'}
          required={field.required}
          hint={field.hint}
          autoComplete="off"
          value={values[field.name] ?? ''}
          error={connect.error}
          onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
        />
      ))}
      {!FORMS[network] && <p className="hint">You will sign in at {NETWORK_NAMES[network]} and come back here.</p>}
      <div>
        <button type="submit" className="primary" disabled={connect.pending}>
          {connect.pending ? 'Connecting…' : FORMS[network] && network !== 'mastodon' ? 'Connect' : `Continue to ${NETWORK_NAMES[network]}`}
        </button>
      </div>
    </form>
  );
}
