import { ApiProperty } from '@nestjs/swagger';

/** One day of a trend; reporting services answer these (`DailyCount`). */
export class TrendPoint {
  @ApiProperty({ description: 'YYYY-MM-DD (UTC)' }) date: string;
  @ApiProperty() value: number;
}

/** E7: `GET /admin/overview`; trends are daily counts for the 30 UTC days ending today. */
export class InstanceOverview {
  @ApiProperty() total_users: number;
  @ApiProperty() new_users_last_30_days: number;
  @ApiProperty() total_organizations: number;
  @ApiProperty() total_workspaces: number;
  @ApiProperty() total_publications: number;
  @ApiProperty() published_last_30_days: number;
  @ApiProperty({ description: 'ready media items of the instance (an addition to the published shape)' }) total_media_items: number;
  @ApiProperty({ description: 'their bytes (an addition to the published shape)' }) total_media_bytes: number;
  @ApiProperty({ description: 'video projects, trashed ones until purged (an addition to the published shape)' })
  total_video_projects: number;
  @ApiProperty({ description: 'image editor designs (an addition to the published shape)' }) total_image_designs: number;
  @ApiProperty({ type: [TrendPoint] }) user_registration_trend: TrendPoint[];
  @ApiProperty({ type: [TrendPoint] }) publication_trend: TrendPoint[];
  @ApiProperty({ description: 'false when a service did not report its totals in time (those totals show 0)' })
  usage_complete: boolean;
}
