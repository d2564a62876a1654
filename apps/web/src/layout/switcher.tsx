import { useId } from 'react';
import { useTenancy } from '../workspace/workspace';

/** Organization and workspace pickers; the choice is remembered (see TenancyProvider). */
export function WorkspaceSwitcher() {
  const tenancy = useTenancy();
  const id = useId();
  if (tenancy.organizations.length === 0) return null;
  return (
    <div className="switcher">
      <label htmlFor={`${id}-org`} className="visually-hidden">
        Organization
      </label>
      <select id={`${id}-org`} value={tenancy.organization?.id ?? ''} onChange={(event) => tenancy.selectOrganization(event.target.value)}>
        {tenancy.organizations.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name}
          </option>
        ))}
      </select>
      {tenancy.workspaces.length > 0 && (
        <>
          <label htmlFor={`${id}-workspace`} className="visually-hidden">
            Workspace
          </label>
          <select
            id={`${id}-workspace`}
            value={tenancy.workspace?.id ?? ''}
            onChange={(event) => tenancy.selectWorkspace(event.target.value)}
          >
            {tenancy.workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </select>
        </>
      )}
    </div>
  );
}
