import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsNumber, IsString, IsUUID, Length, Max, MaxLength, Min } from 'class-validator';
import { IsObjectList } from '../common/object-list.js';
import { Optional } from '../common/optional.js';
import type { FieldError } from '../common/problem.js';

/** The shape of a stored video project document; bumped when it changes incompatibly. */
export const VIDEO_DOCUMENT_SCHEMA_VERSION = 1;
export const VIDEO_TRACK_KINDS = ['video', 'audio', 'text', 'overlay'] as const;
/** Track kinds whose clips play a project asset (`asset_id` required); text clips carry `text` instead. */
export const ASSET_TRACK_KINDS: readonly string[] = ['video', 'audio', 'overlay'];

export const VIDEO_LIMITS = {
  sizePx: 8_192,
  frameRateMax: 240,
  /** 24 hours: every time member is an integer of milliseconds below this. */
  durationMs: 86_400_000,
  tracks: 50,
  clipsPerTrack: 2_000,
  clipsPerDocument: 10_000,
  idLength: 64,
  nameLength: 120,
  text: 5_000,
} as const;

const UUID_MESSAGE = { message: '$property must be a UUID' };
const INTEGER = { message: '$property must be an integer' };

function TimeMs(description: string, minimum = 0): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ type: 'integer', minimum, maximum: VIDEO_LIMITS.durationMs, description })(target, key);
    IsInt(INTEGER)(target, key);
    Min(minimum)(target, key);
    Max(VIDEO_LIMITS.durationMs)(target, key);
  };
}

/** One clip on a track: a span of the timeline playing a project asset (or, on a text track, showing text). */
export class VideoClip {
  @ApiProperty({ minLength: 1, maxLength: VIDEO_LIMITS.idLength, description: 'unique in the document' })
  @IsString()
  @Length(1, VIDEO_LIMITS.idLength)
  id: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'a project asset of this project; required on video, audio and overlay tracks, refused on text tracks' })
  @Optional()
  @IsUUID('all', UUID_MESSAGE)
  asset_id?: string;

  @TimeMs('where the clip starts on the timeline')
  start_ms: number;

  @TimeMs('how long it plays; start_ms + duration_ms is at most the document duration_ms', 1)
  duration_ms: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: VIDEO_LIMITS.durationMs, default: 0, description: 'where in the asset playing starts' })
  @Optional()
  @IsInt(INTEGER)
  @Min(0)
  @Max(VIDEO_LIMITS.durationMs)
  source_start_ms?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 2, default: 1 })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(2)
  volume?: number;

  @ApiPropertyOptional({ minimum: 0.1, maximum: 10, default: 1 })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.1)
  @Max(10)
  speed?: number;

  @ApiPropertyOptional({ maxLength: VIDEO_LIMITS.text, description: 'text tracks only (required there)' })
  @Optional()
  @IsString()
  @MaxLength(VIDEO_LIMITS.text)
  text?: string;
}

export class VideoTrack {
  @ApiProperty({ minLength: 1, maxLength: VIDEO_LIMITS.idLength, description: 'unique in the document' })
  @IsString()
  @Length(1, VIDEO_LIMITS.idLength)
  id: string;

  @ApiProperty({ enum: VIDEO_TRACK_KINDS })
  @IsIn(VIDEO_TRACK_KINDS)
  kind: string;

  @ApiPropertyOptional({ maxLength: VIDEO_LIMITS.nameLength, default: '' })
  @Optional()
  @IsString()
  @MaxLength(VIDEO_LIMITS.nameLength)
  name?: string;

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  muted?: boolean;

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  hidden?: boolean;

  @ApiProperty({ type: [VideoClip], maxItems: VIDEO_LIMITS.clipsPerTrack, description: 'clips of one track never overlap' })
  @IsObjectList(VideoClip, VIDEO_LIMITS.clipsPerTrack)
  clips: VideoClip[];
}

/** A video project's document (VideoProject.document), validated in depth on every write (422 with each location). */
export class VideoDocument {
  @ApiProperty({ enum: [VIDEO_DOCUMENT_SCHEMA_VERSION] })
  @IsIn([VIDEO_DOCUMENT_SCHEMA_VERSION])
  schema_version: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: VIDEO_LIMITS.sizePx })
  @IsInt(INTEGER)
  @Min(1)
  @Max(VIDEO_LIMITS.sizePx)
  width_px: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: VIDEO_LIMITS.sizePx })
  @IsInt(INTEGER)
  @Min(1)
  @Max(VIDEO_LIMITS.sizePx)
  height_px: number;

  @ApiProperty({ minimum: 1, maximum: VIDEO_LIMITS.frameRateMax, description: 'frames per second (e.g. 29.97)' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(1)
  @Max(VIDEO_LIMITS.frameRateMax)
  frame_rate: number;

  @TimeMs('length of the timeline')
  duration_ms: number;

  @ApiProperty({ type: [VideoTrack], maxItems: VIDEO_LIMITS.tracks, description: `at most ${VIDEO_LIMITS.clipsPerDocument} clips in all` })
  @IsObjectList(VideoTrack, VIDEO_LIMITS.tracks)
  tracks: VideoTrack[];
}

/**
 * The rules class-validator cannot say member by member, for a document that
 * passed them: unique ids, clips inside the timeline and not overlapping on a
 * track, asset clips naming an asset and text clips carrying text.
 */
export function videoDocumentErrors(document: VideoDocument, location: string): FieldError[] {
  const errors: FieldError[] = [];
  const trackIds = new Set<string>();
  const clipIds = new Set<string>();
  let clips = 0;
  document.tracks.forEach((track, t) => {
    const at = `${location}.tracks[${t}]`;
    if (trackIds.has(track.id)) errors.push({ location: `${at}.id`, message: 'must be unique among the tracks', value: track.id });
    trackIds.add(track.id);
    const ordered = track.clips.map((clip, c) => ({ clip, c })).sort((a, b) => a.clip.start_ms - b.clip.start_ms || a.c - b.c);
    ordered.forEach(({ clip, c }, i) => {
      const clipAt = `${at}.clips[${c}]`;
      if (clipIds.has(clip.id)) errors.push({ location: `${clipAt}.id`, message: 'must be unique among the clips of the document', value: clip.id });
      clipIds.add(clip.id);
      if (clip.start_ms + clip.duration_ms > document.duration_ms) {
        errors.push({ location: `${clipAt}.duration_ms`, message: "must end within the document's duration_ms", value: clip.duration_ms });
      }
      const previous = ordered[i - 1];
      if (previous && previous.clip.start_ms + previous.clip.duration_ms > clip.start_ms) {
        errors.push({ location: `${clipAt}.start_ms`, message: `must not overlap clip ${previous.c} of the track`, value: clip.start_ms });
      }
      if (ASSET_TRACK_KINDS.includes(track.kind)) {
        if (clip.asset_id === undefined) errors.push({ location: `${clipAt}.asset_id`, message: 'is required' });
        if (clip.text !== undefined) errors.push({ location: `${clipAt}.text`, message: `is only for clips of text tracks` });
      } else {
        if (clip.asset_id !== undefined) errors.push({ location: `${clipAt}.asset_id`, message: 'is not allowed on a text track', value: clip.asset_id });
        if (clip.text === undefined) errors.push({ location: `${clipAt}.text`, message: 'is required' });
      }
    });
    clips += track.clips.length;
  });
  if (clips > VIDEO_LIMITS.clipsPerDocument) {
    errors.push({ location: `${location}.tracks`, message: `must hold at most ${VIDEO_LIMITS.clipsPerDocument} clips in all` });
  }
  return errors;
}

/** The project assets a document plays (lower-cased, once each). */
export function referencedAssetIds(document: { tracks?: Array<{ clips?: Array<{ asset_id?: string }> }> }): string[] {
  const ids = new Set<string>();
  for (const track of document.tracks ?? []) for (const clip of track.clips ?? []) if (clip.asset_id) ids.add(clip.asset_id.toLowerCase());
  return [...ids];
}
