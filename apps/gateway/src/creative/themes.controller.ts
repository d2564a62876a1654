import { Body, Controller, Get, Put, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  OrganizationQuery,
  OrganizationThemeSettings,
  ThemeList,
  ThemeOperations,
  UpdateOrganizationThemeSettingsRequest,
} from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

const MEMBERS = 'Members of the organization; another organization (existing or not) is 403 `organization_forbidden`.';

@ApiTags('Themes')
@ApiBearerAuth()
@Controller()
@RefusesWorkspaceTokens()
export class ThemesController {
  constructor(private readonly forward: Forwarder) {}

  @Get('themes')
  @ApiOperation({ summary: 'The themes an organization may use: the built-in catalogue', description: MEMBERS })
  @Returns(ThemeList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(OrganizationQuery)) query: OrganizationQuery): Promise<ThemeList> {
    return this.forward.send(ThemeOperations.list, req, { query: { ...query } });
  }

  @Get('theme-settings/organization')
  @ApiOperation({
    summary: "The organization's theme default and lock (default: the first built-in theme, unlocked)",
    description: MEMBERS,
  })
  @Returns(OrganizationThemeSettings)
  @Refuses(403, 422)
  get(@Req() req: FastifyRequest, @Query(new ValidQuery(OrganizationQuery)) query: OrganizationQuery): Promise<OrganizationThemeSettings> {
    return this.forward.send(ThemeOperations.getSettings, req, { query: { ...query } });
  }

  @Put('theme-settings/organization')
  @ApiOperation({
    summary: 'Set the organization theme default and lock (organization owners and admins)',
    description:
      'A member who is neither is 403 `insufficient_role`; an organization the caller is not in, existing or not, 403 ' +
      '`organization_forbidden`. ' +
      '`default_reference` must name an existing theme version: an unknown `id` is 422 at `body.default_reference.id`, another ' +
      '`version` at `body.default_reference.version`.',
  })
  @Returns(OrganizationThemeSettings)
  @Refuses(400, 403, 413, 415, 422, 'organization_forbidden', 'insufficient_role')
  update(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(UpdateOrganizationThemeSettingsRequest)) body: UpdateOrganizationThemeSettingsRequest,
  ): Promise<OrganizationThemeSettings> {
    return this.forward.send(ThemeOperations.updateSettings, req, { body });
  }
}
