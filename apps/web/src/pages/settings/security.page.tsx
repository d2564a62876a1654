import { unwrap, type Schema } from '@social/sdk';
import { startRegistration } from '@simplewebauthn/browser';
import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { Field } from '../../ui/field';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';
import { webAuthnFailure } from '../../ui/webauthn';

type Passkey = Schema<'Passkey'>;

const METHOD_NAMES: Record<string, string> = { password: 'Password', passkey: 'Passkey', totp: 'Authenticator app' };

/** Sign-in methods and passkeys: add one (after confirming the password, contract §2), remove one. */
export default function SecurityPage() {
  const api = useApi();
  const status = useQuery('security', () => unwrap(api.GET('/auth/security')));
  const [announcement, setAnnouncement] = useState('');
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Security</h1>
      <p role="status" className="announcement">
        {announcement}
      </p>
      <ProblemMessage error={status.error} title="Your security settings could not be loaded." />
      {status.loading && !status.data && <Loading />}
      {status.data && (
        <>
          <h2>Sign-in methods</h2>
          <p>{status.data.methods.map((method) => METHOD_NAMES[method] ?? method).join(', ')}</p>
          <h2 id="passkeys-title">Passkeys</h2>
          {status.data.passkeys.length === 0 ? (
            <p>No passkey yet. A passkey signs you in with your device&apos;s screen lock instead of a password.</p>
          ) : (
            <ul className="passkey-list" aria-labelledby="passkeys-title">
              {status.data.passkeys.map((passkey) => (
                <PasskeyItem
                  key={passkey.id}
                  passkey={passkey}
                  onRemoved={() => {
                    setAnnouncement(`Removed the passkey ${passkey.name}.`);
                    status.reload();
                  }}
                />
              ))}
            </ul>
          )}
          <AddPasskey
            onAdded={(next, name) => {
              status.setData(next);
              setAnnouncement(`Added the passkey ${name}.`);
            }}
          />
        </>
      )}
    </section>
  );
}

function PasskeyItem({ passkey, onRemoved }: { passkey: Passkey; onRemoved: () => void }) {
  const api = useApi();
  const remove = useAction(() => unwrap(api.DELETE('/auth/security/passkeys/{id}', { params: { path: { id: passkey.id } } })));
  return (
    <li className="passkey">
      <span>
        <strong>{passkey.name}</strong>{' '}
        <span className="hint">
          added {new Date(passkey.created_at).toLocaleDateString()}
          {passkey.last_used_at && `, last used ${new Date(passkey.last_used_at).toLocaleDateString()}`}
        </span>
      </span>
      <button type="button" onClick={async () => (await remove.run()).ok && onRemoved()} disabled={remove.pending}>
        Remove <span className="visually-hidden">the passkey {passkey.name}</span>
      </button>
      <ProblemMessage error={remove.error} />
    </li>
  );
}

/** Confirms the password (a single-use reauth grant), then runs the browser's WebAuthn registration. */
function AddPasskey({ onAdded }: { onAdded: (status: Schema<'SecurityStatusOutputBody'>, name: string) => void }) {
  const api = useApi();
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const add = useAction(async () => {
    const grant = await unwrap(api.POST('/auth/reauth', { body: { password } }));
    const begun = await unwrap(api.POST('/auth/security/passkeys/begin', { body: { reauth_grant: grant.reauth_grant } }));
    const optionsJSON = begun.options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'];
    const credential = await startRegistration({ optionsJSON }).catch((error: unknown) => {
      throw new Error(webAuthnFailure(error));
    });
    const body = {
      challenge_id: begun.challenge_id,
      credential: credential as unknown as Schema<'FinishPasskeyRequest'>['credential'],
      name: name.trim(),
    };
    return unwrap(api.POST('/auth/security/passkeys/finish', { body }));
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await add.run();
    if (done.ok) {
      onAdded(done.value, name.trim() || 'Passkey');
      setPassword('');
      setName('');
    }
  };
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="add-passkey-title">
      <h2 id="add-passkey-title">Add a passkey</h2>
      <ProblemMessage error={add.error} />
      <Field
        label="Name"
        name="name"
        value={name}
        hint="Where it lives, e.g. “Laptop”."
        onChange={(event) => setName(event.target.value)}
      />
      <Field
        label="Your password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        hint="Confirms it is you before a new way to sign in is added."
        value={password}
        error={add.error}
        onChange={(event) => setPassword(event.target.value)}
      />
      <div>
        <button type="submit" className="primary" disabled={add.pending}>
          {add.pending ? 'Waiting for your device…' : 'Add a passkey'}
        </button>
      </div>
    </form>
  );
}
