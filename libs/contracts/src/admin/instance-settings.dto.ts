import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsObjectList } from '../common/object-list.js';
import { SETTING_TYPES, SETTING_VALUE_MAX_LENGTH } from './settings-registry.js';

export const SETTING_SOURCES = ['database', 'environment', 'default'] as const;

/** One change of E5: exactly one of `value` (a string in every type) or `unset: true` (drop the override). */
export class InstanceSettingChange {
  @ApiProperty({ maxLength: 100 })
  @IsString()
  @Length(1, 100)
  key: string;

  @ApiPropertyOptional({ maxLength: SETTING_VALUE_MAX_LENGTH, description: 'e.g. "true", "25"; "" = none (optional settings only)' })
  @Optional()
  @IsString()
  value?: string;

  @ApiPropertyOptional({ enum: [true], description: 'true drops the database override (environment or default applies again)' })
  @Optional()
  @IsIn([true], { message: '$property must be true (leave it out to set a value)' })
  unset?: boolean;
}

export class SaveInstanceSettingsRequest {
  @ApiProperty({ type: [InstanceSettingChange], minItems: 1, maxItems: 100 })
  @IsObjectList(InstanceSettingChange, 100, 1)
  settings: InstanceSettingChange[];
}

export class SettingOption {
  @ApiProperty() label: string;
  @ApiProperty() value: string;
}

/** Secret settings are redacted: `value` is "" and `secret_configured` tells whether one is set. */
export class InstanceSetting {
  @ApiProperty() key: string;
  @ApiProperty() group: string;
  @ApiProperty() label: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: SETTING_TYPES }) type: string;
  @ApiProperty({ type: [SettingOption] }) options: SettingOption[];
  @ApiProperty() optional: boolean;
  @ApiProperty({ type: [String] }) environment_variables: string[];
  @ApiProperty({ description: 'the value in effect after a restart (database, else environment, else default); "" for secrets' })
  value: string;
  @ApiProperty({ enum: SETTING_SOURCES, description: 'where `value` comes from' }) source: string;
  @ApiProperty({ description: 'whether the setting has a non-empty value' }) configured: boolean;
  @ApiProperty() secret: boolean;
  @ApiProperty({ description: 'secret settings: whether a secret is set' }) secret_configured: boolean;
  @ApiProperty({ description: 'whether a database override is saved' }) database_override_configured: boolean;
  @ApiProperty() editable: boolean;
  @ApiProperty({ description: 'the service that applies the setting' }) managed_by: string;
  @ApiProperty({ description: 'the saved value differs from the one running services started with' }) requires_restart: boolean;
  @ApiProperty({ description: 'time of the database override; "" without one' }) updated_at: string;
}

export class InstanceSettingsResponse {
  @ApiProperty({ description: 'true while any saved value differs from the running one' }) requires_restart: boolean;
  @ApiProperty({ type: [InstanceSetting] }) settings: InstanceSetting[];
}
