import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';

export const SANDBOX_POSTS_PAGE_DEFAULT = 20;
export const SANDBOX_POSTS_PAGE_MAX = 100;

export class ListSandboxPostsQuery {
  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: SANDBOX_POSTS_PAGE_MAX, default: SANDBOX_POSTS_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(SANDBOX_POSTS_PAGE_MAX)
  limit?: number;
}

/** One image or video as the sandbox network received it (the delivered bytes, after image processing). */
export class SandboxPostMedia {
  @ApiProperty({ description: 'SHA-256 of the delivered bytes, hex' }) sha256: string;
  @ApiProperty() mime_type: string;
  @ApiProperty({ type: 'integer', description: '0 when unknown (a video)' }) width: number;
  @ApiProperty({ type: 'integer', description: '0 when unknown (a video)' }) height: number;
  @ApiProperty({ type: 'integer', description: 'bytes delivered' }) size: number;
  @ApiProperty({ description: '"" when none' }) alt_text: string;
  @ApiProperty({ description: 'whether the delivered bytes still carry EXIF metadata' }) exif: boolean;
}

export class SandboxPostPart {
  @ApiProperty() text: string;
  @ApiProperty({ type: [SandboxPostMedia] }) media: SandboxPostMedia[];
}

export class SandboxPost {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: "the rendition's external_id" }) external_id: string;
  @ApiProperty({ format: 'uuid' }) rendition_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: [SandboxPostPart] }) parts: SandboxPostPart[];
}

/** What the simulated network received for one sandbox account, newest first (docs/decisions.md "The sandbox's rules"). */
export class SandboxPostList {
  @ApiProperty({ type: [SandboxPost] }) posts: SandboxPost[];
  @ApiProperty({ description: '"" on the last page' }) next_cursor: string;
}
