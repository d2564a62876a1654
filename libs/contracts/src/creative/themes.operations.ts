import { operation } from '../common/operation.js';
import { OrganizationQuery, OrganizationThemeSettings, ThemeList, UpdateOrganizationThemeSettingsRequest } from './themes.dto.js';

/** Themes and an organization's theme settings (creative service). */
export const ThemeOperations = {
  list: operation({ subject: 'creative.themes.list', query: OrganizationQuery, answer: ThemeList }),
  getSettings: operation({ subject: 'creative.themes.get-settings', query: OrganizationQuery, answer: OrganizationThemeSettings }),
  updateSettings: operation({
    subject: 'creative.themes.update-settings',
    body: UpdateOrganizationThemeSettingsRequest,
    answer: OrganizationThemeSettings,
  }),
};
