import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  IssuePublicUrlRequest,
  MediaContentTarget,
  MediaPatterns,
  type Principal,
  type PublicContentRequest,
  type PublicMediaUrl,
  ReadMediaItemRequest,
  type ResourceAnswer,
  ResolvedMediaList,
  ResolveMediaRequest,
  ShareDeliveryCopyRequest,
} from '@social/contracts';
import { pathId, validateInput } from '@social/platform';
import { MediaSharingService } from './media-sharing.service.js';

/**
 * A service-to-service request: the request itself (as media sends creative's checkAsset), or an
 * RPC envelope whose body it is (as creative sends media's routes), whose principal is then checked.
 */
function unwrap(payload: unknown): { principal: Principal | null; body: unknown } {
  const envelope = payload as { principal?: Principal | null; body?: unknown; params?: unknown } | null;
  if (envelope && typeof envelope === 'object' && 'body' in envelope && 'params' in envelope)
    return { principal: envelope.principal ?? null, body: envelope.body };
  return { principal: null, body: payload };
}

/** Subjects other services ask (the gateway forwards no client request to them, except its public route's content question). */
@Controller()
export class MediaSharingHandler {
  constructor(private readonly sharing: MediaSharingService) {}

  @MessagePattern(MediaPatterns.resolveMedia)
  resolve(@Payload() payload: unknown): Promise<ResolvedMediaList> {
    const { principal, body } = unwrap(payload);
    return this.sharing.resolve(principal, validateInput(ResolveMediaRequest, body, 'body'));
  }

  /** Webhooks, for `media.ready` bodies: the library item as the API shows it, or null. */
  @MessagePattern(MediaPatterns.readItem)
  async readItem(@Payload() payload: unknown): Promise<ResourceAnswer> {
    return { resource: await this.sharing.readItem(validateInput(ReadMediaItemRequest, unwrap(payload).body, 'body')) };
  }

  @MessagePattern(MediaPatterns.issuePublicUrl)
  issue(@Payload() payload: unknown): Promise<PublicMediaUrl> {
    const { principal, body } = unwrap(payload);
    return this.sharing.issuePublicUrl(principal, validateInput(IssuePublicUrlRequest, body, 'body'));
  }

  /** Publishing, for networks that fetch media by URL: a public URL of the image it stored as the network receives it. */
  @MessagePattern(MediaPatterns.shareDeliveryCopy)
  shareDeliveryCopy(@Payload() payload: unknown): Promise<PublicMediaUrl> {
    return this.sharing.shareDeliveryCopy(validateInput(ShareDeliveryCopyRequest, unwrap(payload).body, 'body'));
  }

  /** The gateway's public route, after it checked the URL's signature and expiry (no principal: the token is the credential). */
  @MessagePattern(MediaPatterns.publicContent)
  content(@Payload() payload: PublicContentRequest): Promise<MediaContentTarget> {
    return this.sharing.publicContent(pathId(payload?.media_id, 'This media item no longer exists.'));
  }
}
