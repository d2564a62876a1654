import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { Optional } from '../common/optional.js';

/** Contract §4 "Attaching": at most this many media on the publication, on one segment, or on one rendition override. */
export const MAX_ATTACHED_MEDIA = 20;
export const ALT_TEXT_MAX_LENGTH = 1_500;
/** `thumbnail` (a video's poster) and `cover` (a link card's image) do not count as attachments. */
export const MEDIA_ROLES = ['attachment', 'thumbnail', 'cover'] as const;
export type MediaRole = (typeof MEDIA_ROLES)[number];

/** One media item of the workspace library attached to a publication, a segment or a rendition's part. */
export class AttachedMediaInput {
  @ApiProperty({ format: 'uuid', description: "a ready item of the publication's workspace library" })
  @IsUUID('all', { message: '$property must be a UUID' })
  media_id: string;

  @ApiPropertyOptional({ maxLength: ALT_TEXT_MAX_LENGTH, default: '', description: 'what the media shows, for people who cannot see it' })
  @Optional()
  @IsString()
  @MaxLength(ALT_TEXT_MAX_LENGTH)
  alt_text?: string;

  @ApiPropertyOptional({ enum: MEDIA_ROLES, default: 'attachment' })
  @Optional()
  @IsIn(MEDIA_ROLES)
  role?: string;
}

/**
 * How every `media` jsonb column of publishing holds attached media (the publication's, its
 * segments', its renditions' and their parts'): the reference and what the author said about it.
 * The facts (size, dimensions, analysis) are read from publishing's media facts when answering.
 */
export interface AttachedMedia {
  media_id: string;
  alt_text: string;
  role: MediaRole;
  display_order: number;
  settings: Record<string, unknown>;
}
