import { unwrap } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { Link } from '../../router/router';
import { useApi, useUser } from '../../session/session';
import '../../styles/manage.css';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field } from '../../ui/field';
import { formatDateTime } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { SelectField } from '../../ui/select-field';
import { EmptyState, Loading } from '../../ui/states';
import { useTenancy, useWorkspace, type WorkspaceRole } from '../../workspace/workspace';
import { ROLES, roleName } from './roles';

/** The workspace: its name, its members and their roles (admins change them), and a new workspace. */
export default function MembersPage() {
  const api = useApi();
  const user = useUser();
  const { workspace, canAdminister } = useWorkspace();
  const members = useQuery(workspace.id, () => unwrap(api.GET('/workspaces/{id}/members', { params: { path: { id: workspace.id } } })));
  const changeRole = useAction(async (userId: string, role: WorkspaceRole) => {
    await unwrap(
      api.PATCH('/workspaces/{id}/members/{user_id}', { params: { path: { id: workspace.id, user_id: userId } }, body: { role } }),
    );
    members.reload();
  });
  const remove = useAction(async (userId: string) => {
    await unwrap(api.DELETE('/workspaces/{id}/members/{user_id}', { params: { path: { id: workspace.id, user_id: userId } } }));
    members.reload();
  });
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Members</h1>
      <RenameWorkspace />
      <div className="panel">
        <h2>Members of {workspace.name}</h2>
        <p className="meta">
          Organization owners and admins act as workspace admins without being listed.{' '}
          {canAdminister && <Link href="/settings/invitations">Invite someone</Link>}
        </p>
        <ProblemMessage error={members.error ?? changeRole.error ?? remove.error} />
        {members.loading && !members.data && <Loading />}
        {members.data?.members.length === 0 && <EmptyState title="No listed members" />}
        <ul className="rows" aria-label="Members">
          {members.data?.members.map((member) => {
            const name = member.display_name || member.email;
            // Names repeat; the email tells two people apart for those who cannot see the row.
            const who = member.display_name ? `${member.display_name} (${member.email})` : member.email;
            return (
              <li key={member.user_id} className="row">
                <div className="row-main">
                  <p>
                    <strong>{name}</strong> {member.user_id === user.id && <span className="badge">You</span>}
                  </p>
                  <p className="meta">
                    {member.email} · joined {formatDateTime(member.joined_at)}
                  </p>
                </div>
                <div className="row-actions">
                  {canAdminister ? (
                    <SelectField
                      label={`Role of ${who}`}
                      name="role"
                      value={member.role}
                      disabled={changeRole.pending}
                      onChange={(event) => changeRole.run(member.user_id, event.target.value as WorkspaceRole)}
                    >
                      {ROLES.map((role) => (
                        <option key={role.value} value={role.value}>
                          {roleName(role.value)}
                        </option>
                      ))}
                    </SelectField>
                  ) : (
                    <span className="badge">{roleName(member.role)}</span>
                  )}
                  {(canAdminister || member.user_id === user.id) && (
                    <ConfirmButton confirmLabel={`Confirm: remove ${who}`} onConfirm={() => remove.run(member.user_id)}>
                      {member.user_id === user.id ? 'Leave' : 'Remove'}
                    </ConfirmButton>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </div>
      <CreateWorkspace />
    </section>
  );
}

function RenameWorkspace() {
  const api = useApi();
  const tenancy = useTenancy();
  const { workspace, canAdminister } = useWorkspace();
  const [name, setName] = useState(workspace.name);
  const rename = useAction(async () => {
    await unwrap(api.PATCH('/workspaces/{id}', { params: { path: { id: workspace.id } }, body: { name: name.trim() } }));
    tenancy.reload(workspace.id);
  });
  if (!canAdminister) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void rename.run();
  };
  return (
    <form className="panel toolbar" onSubmit={submit} aria-label="Rename the workspace">
      <Field label="Workspace name" name="name" required value={name} error={rename.error} onChange={(e) => setName(e.target.value)} />
      <button type="submit" disabled={rename.pending || name.trim() === workspace.name}>
        Rename
      </button>
      <ProblemMessage error={rename.error} />
    </form>
  );
}

/** Organization owners and admins add workspaces; anyone may start an organization of their own. */
function CreateWorkspace() {
  const api = useApi();
  const tenancy = useTenancy();
  const { organization } = useWorkspace();
  const [workspaceName, setWorkspaceName] = useState('');
  const [organizationName, setOrganizationName] = useState('');
  const createWorkspace = useAction(async () => {
    const created = await unwrap(api.POST('/workspaces', { body: { organization_id: organization.id, name: workspaceName.trim() } }));
    setWorkspaceName('');
    tenancy.reload(created.id);
  });
  const createOrganization = useAction(async () => {
    const created = await unwrap(api.POST('/organizations', { body: { name: organizationName.trim() } }));
    const workspace = await unwrap(api.POST('/workspaces', { body: { organization_id: created.id, name: 'Main' } }));
    setOrganizationName('');
    tenancy.reload(workspace.id);
  });
  const canAddWorkspace = organization.role !== 'member';
  return (
    <div className="panel">
      <h2>New workspace or organization</h2>
      {canAddWorkspace && (
        <form
          className="toolbar"
          onSubmit={(event) => {
            event.preventDefault();
            void createWorkspace.run();
          }}
        >
          <Field
            label={`New workspace in ${organization.name}`}
            name="name"
            required
            value={workspaceName}
            error={createWorkspace.error}
            onChange={(e) => setWorkspaceName(e.target.value)}
          />
          <button type="submit" disabled={createWorkspace.pending}>
            Create workspace
          </button>
          <ProblemMessage error={createWorkspace.error} />
        </form>
      )}
      <form
        className="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          void createOrganization.run();
        }}
      >
        <Field
          label="New organization"
          name="name"
          required
          hint="It starts with one workspace, Main."
          value={organizationName}
          error={createOrganization.error}
          onChange={(e) => setOrganizationName(e.target.value)}
        />
        <button type="submit" disabled={createOrganization.pending}>
          Create organization
        </button>
        <ProblemMessage error={createOrganization.error} />
      </form>
    </div>
  );
}
