import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MediaUsageReply, MediaUsageRequest, PublishingPatterns } from '@social/contracts';
import { validateInput } from '@social/platform';
import { MediaUsageService } from './media-usage.service.js';

/**
 * Service to service: media asks before deleting a library item. The request is the bare
 * `{workspace_id, media_ids}` or an envelope carrying it as `body` (as services call each other).
 */
@Controller()
export class MediaUsageHandler {
  constructor(private readonly usage: MediaUsageService) {}

  @MessagePattern(PublishingPatterns.mediaUsage)
  inUse(@Payload() req: unknown): Promise<MediaUsageReply> {
    const envelope = req as { body?: unknown } | null;
    const body = envelope && typeof envelope === 'object' && 'body' in envelope && envelope.body && typeof envelope.body === 'object' ? envelope.body : req;
    return this.usage.inUse(validateInput(MediaUsageRequest, body, 'body'));
  }
}
