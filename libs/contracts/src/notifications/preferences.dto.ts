import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { Optional } from '../common/optional.js';
import { SchemaName } from '../common/schema-name.js';
import { IsRfc3339DateTime } from '../common/time.js';

export const EMAIL_FREQUENCIES = ['off', 'immediate', 'daily'] as const;
export type EmailFrequency = (typeof EMAIL_FREQUENCIES)[number];
/** 24-hour `HH:MM`. */
export const DIGEST_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export class TopicPreference {
  @ApiProperty({ enum: EMAIL_FREQUENCIES })
  @IsIn(EMAIL_FREQUENCIES)
  email_frequency: EmailFrequency;

  @ApiProperty()
  @IsBoolean()
  in_app: boolean;
}

export class TopicDefinition {
  @ApiProperty() id: string;
  @ApiProperty() group: string;
  @ApiProperty() presentation_key: string;
  @ApiProperty() transactional: boolean;
  @ApiProperty({ description: 'in-app delivery cannot be turned off' }) critical_in_app: boolean;
  @ApiProperty() email_mutable: boolean;
  @ApiProperty() in_app_mutable: boolean;
  @ApiProperty({ description: 'whether mutes silence this topic' }) mute_applies: boolean;
  @ApiProperty({ type: TopicPreference }) default_preference: TopicPreference;
  @ApiProperty({ type: [String], enum: EMAIL_FREQUENCIES }) email_frequencies: string[];
}

export const MUTE_SCOPES = ['account', 'workspace'] as const;

export class NotificationMute {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: MUTE_SCOPES }) scope: string;
  @ApiProperty({ description: '"" for an account-wide mute' }) workspace_id: string;
  @ApiProperty({ description: '"" for an account-wide mute' }) workspace_name: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) starts_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) ends_at: string | null;
}

@SchemaName('PreferenceSettings')
export class NotificationPreferenceSettings {
  @ApiProperty({ description: 'HH:MM, 24-hour' }) digest_time: string;
  @ApiProperty({ description: 'IANA time zone name' }) digest_timezone: string;
  @ApiProperty({ description: 'whether any topic is set to the daily digest' }) digest_configured: boolean;
  @ApiProperty({ description: 'the sign-in email, where email notifications go' }) email_address: string;
  @ApiProperty({ description: 'whether email can be delivered to that address (it is verified)' }) email_available: boolean;
  @ApiProperty({ type: [NotificationMute] }) mutes: NotificationMute[];
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/TopicPreference' } })
  preferences: Record<string, TopicPreference>;
  @ApiProperty({ type: [TopicDefinition] }) topic_definitions: TopicDefinition[];
}

export class UpdatePreferencesRequest {
  @ApiPropertyOptional({ description: 'HH:MM, 24-hour; kept when omitted', example: '09:00' })
  @Optional()
  @IsString()
  @Matches(DIGEST_TIME_PATTERN, { message: '$property must be a 24-hour time as HH:MM' })
  digest_time?: string;

  @ApiPropertyOptional({ description: 'IANA time zone name; kept when omitted', example: 'Europe/Paris' })
  @Optional()
  @IsString()
  @MaxLength(64)
  digest_timezone?: string;

  @ApiProperty({
    description: 'the whole map, topic id → preference; topics left out return to their defaults',
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/TopicPreference' },
  })
  @IsObject()
  preferences: Record<string, TopicPreference>;
}

export class CreateMuteRequest {
  @ApiPropertyOptional({ format: 'uuid', description: 'mute one workspace; omit for the whole account' })
  @Optional()
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id?: string;

  @ApiProperty({ format: 'date-time' })
  @IsString()
  @IsRfc3339DateTime()
  starts_at: string;

  @ApiProperty({ format: 'date-time' })
  @IsString()
  @IsRfc3339DateTime()
  ends_at: string;
}
