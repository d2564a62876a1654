import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  OrganizationQuery,
  OrganizationThemeSettings,
  RpcRequest,
  ThemeList,
  ThemePatterns,
  UpdateOrganizationThemeSettingsRequest,
} from '@social/contracts';
import { requirePrincipal, validateInput } from '@social/platform';
import { ThemesService } from './themes.service.js';

@Controller()
export class ThemesHandler {
  constructor(private readonly themes: ThemesService) {}

  @MessagePattern(ThemePatterns.list)
  list(@Payload() req: RpcRequest): Promise<ThemeList> {
    const principal = requirePrincipal(req);
    return this.themes.list(principal, validateInput(OrganizationQuery, req.query, 'query').organization_id.toLowerCase());
  }

  @MessagePattern(ThemePatterns.getSettings)
  get(@Payload() req: RpcRequest): Promise<OrganizationThemeSettings> {
    const principal = requirePrincipal(req);
    return this.themes.get(principal, validateInput(OrganizationQuery, req.query, 'query').organization_id.toLowerCase());
  }

  @MessagePattern(ThemePatterns.updateSettings)
  update(@Payload() req: RpcRequest): Promise<OrganizationThemeSettings> {
    const principal = requirePrincipal(req);
    return this.themes.update(principal, validateInput(UpdateOrganizationThemeSettingsRequest, req.body, 'body'));
  }
}
