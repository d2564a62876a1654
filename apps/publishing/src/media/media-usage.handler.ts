import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type MediaUsage, type MediaUsageRequest, PublishingPatterns, RESOLVE_MEDIA_MAX_IDS } from '@social/contracts';
import { validateInput } from '@social/platform';
import { ArrayMaxSize, IsArray, IsUUID } from 'class-validator';
import { MediaUsageService } from './media-usage.service.js';

/** The request, validated before any query. */
class MediaUsageInput implements MediaUsageRequest {
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;

  @IsArray()
  @ArrayMaxSize(RESOLVE_MEDIA_MAX_IDS)
  @IsUUID('all', { each: true, message: '$property must contain UUIDs' })
  media_ids: string[];
}

/**
 * Service to service: media asks before deleting a library item. The request is the bare
 * `{workspace_id, media_ids}` or an envelope carrying it as `body` (as services call each other).
 */
@Controller()
export class MediaUsageHandler {
  constructor(private readonly usage: MediaUsageService) {}

  @MessagePattern(PublishingPatterns.mediaUsage)
  inUse(@Payload() req: unknown): Promise<MediaUsage> {
    const envelope = req as { body?: unknown; params?: unknown } | null;
    const body = envelope && typeof envelope === 'object' && 'body' in envelope && 'params' in envelope ? envelope.body : req;
    return this.usage.inUse(validateInput(MediaUsageInput, body, 'body'));
  }
}
