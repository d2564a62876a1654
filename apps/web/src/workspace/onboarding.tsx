import { unwrap } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useAction } from '../api/use-action';
import { useApi } from '../session/session';
import { Field } from '../ui/field';
import { ProblemMessage } from '../ui/problem-message';
import { EmptyState } from '../ui/states';
import { useTenancy } from './workspace';

/** Shown instead of a workspace page until the person has a workspace: creates their organization and first workspace. */
export function Onboarding() {
  const api = useApi();
  const tenancy = useTenancy();
  const { organization } = tenancy;
  const [organizationName, setOrganizationName] = useState('');
  const [workspaceName, setWorkspaceName] = useState('Main');
  const create = useAction(async () => {
    const organizationId = organization?.id ?? (await unwrap(api.POST('/organizations', { body: { name: organizationName.trim() } }))).id;
    const body = { organization_id: organizationId, name: workspaceName.trim() };
    return unwrap(api.POST('/workspaces', { body }));
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await create.run();
    if (done.ok) tenancy.reload(done.value.id);
  };

  if (organization && organization.role === 'member') {
    return (
      <section className="page" aria-labelledby="page-title">
        <h1 id="page-title">No workspace yet</h1>
        <EmptyState title={`You have no workspace in ${organization.name} yet.`}>
          <p>Ask one of its admins to invite you to a workspace.</p>
        </EmptyState>
      </section>
    );
  }
  return (
    <section className="page narrow" aria-labelledby="page-title">
      <h1 id="page-title">{organization ? `Create a workspace in ${organization.name}` : 'Set up your organization'}</h1>
      <p>A workspace holds the accounts, posts and media of one brand or team.</p>
      <form onSubmit={submit} className="stack">
        <ProblemMessage error={create.error} />
        {!organization && (
          <Field
            label="Organization name"
            name="name"
            required
            maxLength={120}
            value={organizationName}
            onChange={(event) => setOrganizationName(event.target.value)}
          />
        )}
        <Field
          label="Workspace name"
          name="workspace_name"
          required
          maxLength={120}
          value={workspaceName}
          onChange={(event) => setWorkspaceName(event.target.value)}
        />
        <button type="submit" className="primary" disabled={create.pending}>
          {create.pending ? 'Creating…' : 'Create workspace'}
        </button>
      </form>
    </section>
  );
}
