import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsObject, IsString, IsUUID, Length, Max, Min, ValidateNested } from 'class-validator';
import { SchemaName } from '../common/schema-name.js';

export const THEME_KINDS = ['built_in'] as const;

/** The built-in theme catalogue (in code, version 1 each); the first is every organization's default. */
export const BUILT_IN_THEMES = [
  { id: 'classic', kind: 'built_in', version: 1, name: 'Classic' },
  { id: 'midnight', kind: 'built_in', version: 1, name: 'Midnight' },
  { id: 'studio', kind: 'built_in', version: 1, name: 'Studio' },
  { id: 'sunrise', kind: 'built_in', version: 1, name: 'Sunrise' },
] as const;

const UUID_MESSAGE = { message: '$property must be a UUID' };

export class OrganizationQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  organization_id: string;
}

export class ThemeReference {
  @ApiProperty({ minLength: 1, maxLength: 64, description: 'a theme of GET /themes' })
  @IsString()
  @Length(1, 64)
  id: string;

  @ApiProperty({ enum: THEME_KINDS })
  @IsIn(THEME_KINDS)
  kind: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'a version of that theme' })
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(2_147_483_647)
  version: number;
}

/** E12. */
export class UpdateOrganizationThemeSettingsRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  organization_id: string;

  @ApiProperty({ description: 'whether workspaces may not pick another theme' })
  @IsBoolean()
  assignments_locked: boolean;

  @ApiProperty({ type: ThemeReference, description: 'an existing theme version (422 at its member otherwise)' })
  @IsObject()
  @ValidateNested()
  @Type(() => ThemeReference)
  default_reference: ThemeReference;
}

export class Theme {
  @ApiProperty() id: string;
  @ApiProperty({ enum: THEME_KINDS }) kind: string;
  @ApiProperty({ type: 'integer' }) version: number;
  @ApiProperty() name: string;
}

export class ThemeList {
  @ApiProperty({ type: [Theme], description: 'every theme an organization may use: the built-in ones' }) themes: Theme[];
}

export class ThemeReferenceView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: THEME_KINDS }) kind: string;
  @ApiProperty({ type: 'integer' }) version: number;
}

@SchemaName('OrganizationThemeSettings')
export class OrganizationThemeSettings {
  @ApiProperty({ format: 'uuid' }) organization_id: string;
  @ApiProperty() assignments_locked: boolean;
  @ApiProperty({ type: ThemeReferenceView }) default_reference: ThemeReferenceView;
}
