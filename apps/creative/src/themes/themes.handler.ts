import { Controller } from '@nestjs/common';
import { ThemeOperations, type InputOf, type OrganizationThemeSettings, type ThemeList } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { ThemesService } from './themes.service.js';

@Controller()
export class ThemesHandler {
  constructor(private readonly themes: ThemesService) {}

  @Handles(ThemeOperations.list)
  list(@Input() { principal, query }: InputOf<typeof ThemeOperations.list>): Promise<ThemeList> {
    return this.themes.list(principal, query.organization_id.toLowerCase());
  }

  @Handles(ThemeOperations.getSettings)
  get(@Input() { principal, query }: InputOf<typeof ThemeOperations.getSettings>): Promise<OrganizationThemeSettings> {
    return this.themes.get(principal, query.organization_id.toLowerCase());
  }

  @Handles(ThemeOperations.updateSettings)
  update(@Input() { principal, body }: InputOf<typeof ThemeOperations.updateSettings>): Promise<OrganizationThemeSettings> {
    return this.themes.update(principal, body);
  }
}
