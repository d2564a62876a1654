import type { THEME_KINDS } from '@social/contracts';

export type ThemeKind = (typeof THEME_KINDS)[number];

/** An organization's theme default (`organization_theme_settings`); no row while it keeps the built-in default. */
export interface ThemeSettingsRow {
  theme_id: string;
  theme_kind: ThemeKind;
  theme_version: number;
  assignments_locked: boolean;
}
