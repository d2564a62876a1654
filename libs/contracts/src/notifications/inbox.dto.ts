import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';
import { NotificationMute } from './preferences.dto.js';

export const NOTIFICATIONS_PAGE_DEFAULT = 50;
export const NOTIFICATIONS_PAGE_MAX = 100;

/** One in-app item of the caller's inbox. */
export class Notification {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'the topic id (see GET /notifications/preferences topic_definitions)' }) topic: string;
  @ApiProperty({ description: 'the workspace it concerns; "" for account topics' }) workspace_id: string;
  @ApiProperty() title: string;
  @ApiProperty() body: string;
  @ApiProperty({ description: 'where a client takes the user (a path of this API, or a URL on a network); "" when none' }) link: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null while unread' }) read_at: string | null;
}

export class NotificationList {
  @ApiProperty({ type: [Notification], description: "the caller's items, newest first" }) notifications: Notification[];
  @ApiProperty({ description: 'pass as `cursor` for the next page (with the same `unread`); "" on the last page' }) next_cursor: string;
}

export class ListNotificationsQuery {
  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor, with the same unread filter" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: NOTIFICATIONS_PAGE_MAX, default: NOTIFICATIONS_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(NOTIFICATIONS_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: only unread items' })
  @Optional()
  @IsIn(['true', 'false'], { message: '$property must be true or false' })
  unread?: string;
}

export class NotificationUnreadCount {
  @ApiProperty({ type: 'integer', description: "the caller's unread in-app items" }) count: number;
}

export class NotificationMuteList {
  @ApiProperty({ type: [NotificationMute], description: 'mutes that have not ended, soonest first' }) mutes: NotificationMute[];
}
