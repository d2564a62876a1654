import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';

export const USER_SORTS = ['created_at', 'email', 'display_name', 'last_active_at', 'workspace_count', 'publication_count'] as const;
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const MAX_PER_PAGE = 100;

/** E9 query (interface limits table). */
export class ListInstanceUsersQuery {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 1,
    description:
      'at most 2^53−1 (9007199254740991, the largest integer a JSON number carries exactly); ' +
      'larger is 422. A page beyond the last answers an empty `users` list.',
  })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 1, maximum: MAX_PER_PAGE, default: 25 })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(MAX_PER_PAGE)
  per_page?: number;

  @ApiPropertyOptional({ maxLength: 200, description: 'case-insensitive match on email or display name' })
  @Optional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: USER_SORTS, default: 'created_at' })
  @Optional()
  @IsIn(USER_SORTS)
  sort?: string;

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'desc' })
  @Optional()
  @IsIn(SORT_DIRECTIONS)
  direction?: string;
}

export class InstanceUser {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() display_name: string;
  @ApiProperty() avatar_url: string;
  @ApiProperty() is_admin: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ description: 'last sign-in or token refresh (RFC 3339); "" when never' }) last_active_at: string;
  @ApiProperty() organization_count: number;
  @ApiProperty() workspace_count: number;
  @ApiProperty() publication_count: number;
  @ApiProperty() social_account_count: number;
  @ApiProperty({ description: 'ready media items the user uploaded (an addition to the published shape)' }) media_item_count: number;
  @ApiProperty({ description: 'their bytes (an addition to the published shape)' }) media_bytes: number;
  @ApiProperty({ description: 'video projects the user created, trashed ones until purged (an addition to the published shape)' })
  video_project_count: number;
  @ApiProperty({ description: 'image editor designs the user created (an addition to the published shape)' }) image_design_count: number;
  @ApiProperty({ type: [String], description: 'no billing provider is wired: always []' }) plan_ids: string[];
}

export class InstanceUserPage {
  @ApiProperty() page: number;
  @ApiProperty() per_page: number;
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [InstanceUser] }) users: InstanceUser[];
  @ApiProperty({ description: 'false when a service did not report its counts in time (those counts show 0)' })
  usage_complete: boolean;
}

/** `accounts.directory.list-users`: the page of users (admin asks; accounts owns users). */
export interface DirectoryUsersRequest {
  page: number;
  per_page: number;
  search: string;
  sort: (typeof USER_SORTS)[number];
  direction: (typeof SORT_DIRECTIONS)[number];
}

export interface DirectoryUser {
  id: string;
  email: string;
  display_name: string;
  avatar_url: string;
  is_admin: boolean;
  created_at: string;
  last_active_at: string;
}

export interface DirectoryUsersReply {
  total: number;
  users: DirectoryUser[];
}
