import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { nextPath } from '../../app/next-path';
import { Link, navigate, useLocation } from '../../router/router';
import { useSession } from '../../session/session';
import { Field } from '../../ui/field';
import { ProblemMessage } from '../../ui/problem-message';

export default function SignUpPage() {
  const { signUp } = useSession();
  const { query } = useLocation();
  const [fields, setFields] = useState({ display_name: '', email: '', password: '' });
  const action = useAction(signUp);
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) => setFields({ ...fields, [name]: event.target.value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { display_name, ...required } = fields;
    const done = await action.run({ ...required, ...(display_name.trim() ? { display_name: display_name.trim() } : {}) });
    if (done.ok) navigate(nextPath(query), { replace: true });
  };
  return (
    <section className="page narrow" aria-labelledby="page-title">
      <h1 id="page-title">Create an account</h1>
      <form onSubmit={submit} className="stack">
        <ProblemMessage error={action.error} />
        <Field
          label="Your name"
          name="display_name"
          autoComplete="name"
          value={fields.display_name}
          error={action.error}
          onChange={set('display_name')}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={fields.email}
          error={action.error}
          onChange={set('email')}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          hint="At least 12 characters."
          value={fields.password}
          error={action.error}
          onChange={set('password')}
        />
        <button type="submit" className="primary" disabled={action.pending}>
          {action.pending ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p>
        Already have an account? <Link href={`/sign-in${query.size ? `?${query}` : ''}`}>Sign in</Link>
      </p>
    </section>
  );
}
