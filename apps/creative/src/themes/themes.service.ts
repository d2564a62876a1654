import { Injectable } from '@nestjs/common';
import {
  BUILT_IN_THEMES,
  Organization,
  OrganizationThemeSettings,
  Principal,
  RpcRequest,
  TenancyPatterns,
  ThemeList,
  UpdateOrganizationThemeSettingsRequest,
} from '@social/contracts';
import { Problem, problems, RpcClient } from '@social/platform';
import { DataSource } from 'typeorm';
import type { ThemeSettingsRow } from './theme-settings.row.js';

const DEFAULT_THEME = BUILT_IN_THEMES[0];

@Injectable()
export class ThemesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  /** The built-in catalogue, for members of the organization. */
  async list(principal: Principal, organizationId: string): Promise<ThemeList> {
    await this.organizationRole(principal, organizationId);
    return { themes: BUILT_IN_THEMES.map((theme) => ({ ...theme })) };
  }

  /** The organization's default theme and lock (default: the first built-in theme, unlocked), for its members. */
  async get(principal: Principal, organizationId: string): Promise<OrganizationThemeSettings> {
    const organization = await this.organizationRole(principal, organizationId);
    return this.read(organization.id);
  }

  /** E12: organization owners and admins; `default_reference` names an existing theme version. */
  async update(principal: Principal, input: UpdateOrganizationThemeSettingsRequest): Promise<OrganizationThemeSettings> {
    const organization = await this.organizationRole(principal, input.organization_id);
    if (organization.role !== 'owner' && organization.role !== 'admin') {
      throw problems.forbidden(
        'insufficient_role',
        `Only organization owners and admins set the theme default; you are ${organization.role}.`,
      );
    }
    const reference = input.default_reference;
    const theme = BUILT_IN_THEMES.find((candidate) => candidate.id === reference.id && candidate.kind === reference.kind);
    if (!theme) throw problems.invalid('body.default_reference.id', 'must name a theme of GET /themes', reference.id);
    if (theme.version !== reference.version) {
      throw problems.invalid(
        'body.default_reference.version',
        `must be a version of theme ${theme.id} (${theme.version})`,
        reference.version,
      );
    }
    await this.dataSource.query(
      `INSERT INTO organization_theme_settings (organization_id, theme_id, theme_kind, theme_version, assignments_locked, updated_by,
         updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (organization_id) DO UPDATE SET theme_id = $2, theme_kind = $3, theme_version = $4, assignments_locked = $5,
         updated_by = $6, updated_at = now()`,
      [organization.id, theme.id, theme.kind, theme.version, input.assignments_locked, principal.userId],
    );
    return this.read(organization.id);
  }

  private async read(organizationId: string): Promise<OrganizationThemeSettings> {
    const [row] = await this.dataSource.query<ThemeSettingsRow[]>(
      `SELECT theme_id, theme_kind, theme_version, assignments_locked FROM organization_theme_settings WHERE organization_id = $1`,
      [organizationId],
    );
    return {
      organization_id: organizationId,
      assignments_locked: row?.assignments_locked ?? false,
      default_reference: row
        ? { id: row.theme_id, kind: row.theme_kind, version: row.theme_version }
        : { id: DEFAULT_THEME.id, kind: DEFAULT_THEME.kind, version: DEFAULT_THEME.version },
    };
  }

  /**
   * The caller's organization and role, as accounts answers its members: an organization the
   * caller is not in (or that does not exist) is 403 `organization_forbidden`, the same answer
   * either way; a workspace-bound token is refused by accounts (403 `workspace_token_forbidden`).
   */
  private async organizationRole(principal: Principal, organizationId: string): Promise<Organization> {
    const request: RpcRequest = { principal, params: { id: organizationId }, query: {}, body: null, idempotencyKey: null, clientIp: '' };
    try {
      return await this.rpc.send<Organization>(TenancyPatterns.getOrganization, request);
    } catch (error) {
      if (error instanceof Problem && error.status === 404) {
        throw problems.forbidden('organization_forbidden', 'You are not a member of this organization.');
      }
      throw error;
    }
  }
}
