import { unwrap, type Schema } from '@social/sdk';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '../api/use-query';
import { useApi, useUser } from '../session/session';

export type Organization = Schema<'Organization'>;
export type Workspace = Schema<'Workspace'>;
export type WorkspaceRole = Workspace['role'];

/** Everything the person belongs to and what they chose; `workspace` is null until they have one. */
export interface Tenancy {
  organizations: Organization[];
  /** The workspaces of the chosen organization. */
  workspaces: Workspace[];
  organization: Organization | null;
  workspace: Workspace | null;
  loading: boolean;
  error: unknown;
  selectOrganization(id: string): void;
  selectWorkspace(id: string): void;
  /** Loads organizations and workspaces again (after creating one, or being invited), then selects `workspaceId`. */
  reload(workspaceId?: string): void;
}

/** The workspace a page works in, and what the person may do there. */
export interface CurrentWorkspace {
  organization: Organization;
  workspace: Workspace;
  role: WorkspaceRole;
  /** Editors and admins change content; viewers only read: pages show their controls disabled or hidden. */
  canEdit: boolean;
  /** Workspace admins manage members, invitations and settings. */
  canAdminister: boolean;
}

const TenancyContext = createContext<Tenancy | null>(null);

interface Choice {
  organizationId?: string;
  workspaceId?: string;
}

/** Loads the person's organizations and workspaces, and keeps their choice in localStorage (per person, across visits). */
export function TenancyProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const user = useUser();
  const storageKey = `social.workspace.${user.id}`;
  const [choice, setChoice] = useState<Choice>(() => readChoice(storageKey));
  const choose = useCallback(
    (next: Choice) => {
      localStorage.setItem(storageKey, JSON.stringify(next));
      setChoice(next);
    },
    [storageKey],
  );
  const query = useQuery(user.id, async () => {
    const [organizations, workspaces] = await Promise.all([unwrap(api.GET('/organizations')), unwrap(api.GET('/workspaces'))]);
    return { organizations: organizations.organizations, workspaces: workspaces.workspaces };
  });

  const value = useMemo<Tenancy>(() => {
    const all = query.data ?? { organizations: [], workspaces: [] };
    const chosenWorkspace = all.workspaces.find((item) => item.id === choice.workspaceId);
    const organization =
      all.organizations.find((item) => item.id === (chosenWorkspace?.organization_id ?? choice.organizationId)) ??
      all.organizations.find((item) => all.workspaces.some((workspace) => workspace.organization_id === item.id)) ??
      all.organizations[0] ??
      null;
    const workspaces = all.workspaces.filter((item) => item.organization_id === organization?.id);
    const workspace = (chosenWorkspace?.organization_id === organization?.id ? chosenWorkspace : undefined) ?? workspaces[0] ?? null;
    return {
      organizations: all.organizations,
      workspaces,
      organization,
      workspace,
      loading: query.loading,
      error: query.error,
      selectOrganization: (id) =>
        choose({ organizationId: id, workspaceId: all.workspaces.find((item) => item.organization_id === id)?.id }),
      selectWorkspace: (id) => choose({ organizationId: organization?.id, workspaceId: id }),
      reload: (workspaceId) => {
        if (workspaceId) choose({ workspaceId });
        query.reload();
      },
    };
  }, [query, choice, choose]);
  return <TenancyContext.Provider value={value}>{children}</TenancyContext.Provider>;
}

function readChoice(storageKey: string): Choice {
  try {
    return (JSON.parse(localStorage.getItem(storageKey) ?? '{}') as Choice) ?? {};
  } catch {
    return {};
  }
}

export function useTenancy(): Tenancy {
  const tenancy = useContext(TenancyContext);
  if (!tenancy) throw new Error('useTenancy() outside <TenancyProvider>');
  return tenancy;
}

/** The current workspace; only on pages whose route needs one (the shell shows onboarding until there is one). */
export function useWorkspace(): CurrentWorkspace {
  const { organization, workspace } = useTenancy();
  if (!organization || !workspace) throw new Error('useWorkspace() on a page whose route does not need a workspace');
  return {
    organization,
    workspace,
    role: workspace.role,
    canEdit: workspace.role !== 'viewer',
    canAdminister: workspace.role === 'admin',
  };
}
