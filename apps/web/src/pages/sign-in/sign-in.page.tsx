import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { nextPath } from '../../app/next-path';
import { Link, navigate, useLocation } from '../../router/router';
import { useSession } from '../../session/session';
import { Field } from '../../ui/field';
import { ProblemMessage } from '../../ui/problem-message';
import { usePasskeySignIn } from './passkey-sign-in';

export default function SignInPage() {
  const { signIn } = useSession();
  const { query } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(signIn);
  const passkey = usePasskeySignIn();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await action.run(email, password)).ok) navigate(nextPath(query), { replace: true });
  };
  return (
    <section className="page narrow" aria-labelledby="page-title">
      <h1 id="page-title">Sign in</h1>
      <form onSubmit={submit} className="stack">
        <ProblemMessage error={action.error} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          error={action.error}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          error={action.error}
          onChange={(event) => setPassword(event.target.value)}
        />
        <button type="submit" className="primary" disabled={action.pending}>
          {action.pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <div className="or">
        <ProblemMessage error={passkey.error} />
        <button
          type="button"
          disabled={passkey.pending}
          onClick={async () => (await passkey.run()).ok && navigate(nextPath(query), { replace: true })}
        >
          {passkey.pending ? 'Waiting for your device…' : 'Sign in with a passkey'}
        </button>
      </div>
      <p>
        New here? <Link href={`/sign-up${query.size ? `?${query}` : ''}`}>Create an account</Link>
      </p>
    </section>
  );
}
