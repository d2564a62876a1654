import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { v5 as uuidv5 } from 'uuid';
import { Inject, Injectable } from '@nestjs/common';
import {
  MediaPatterns,
  type AttachedMedia,
  type PublicMediaUrl,
  type ResolvedMedia,
  type ShareDeliveryCopyRequest,
} from '@social/contracts';
import { deliveryCopyKey, RpcClient, type ByteRange, type MediaStorage } from '@social/platform';
import { fitImage } from '../media/image-fit.js';
import { DeliveryError, type OutgoingMedia } from '../providers/social-provider.js';
import { rulesFor } from '../providers/network-rules.js';
import { PUBLISHING_MEDIA_STORAGE } from '../media/media-storage.module.js';

/** The attachments a part carries, in order: `thumbnail` (a video's poster) and `cover` (a link card's image) are not attachments. */
export function attachmentsOf(media: unknown): AttachedMedia[] {
  if (!Array.isArray(media)) return [];
  return (media as AttachedMedia[])
    .filter((entry) => entry && typeof entry.media_id === 'string' && (entry.role ?? 'attachment') === 'attachment')
    .sort((a, b) => (a.display_order ?? 0) - (b.display_order ?? 0));
}

/** Whether an item's analysis is still running: the rendition waits for it. */
export const stillAnalysing = (item: ResolvedMedia) => item.analysis_status === 'pending';

/**
 * Images read and re-encoded at once in this process, whatever the number of deliveries in flight: each holds
 * its source file and sharp's decoded pixels, so this bounds the memory image processing takes (and libvips
 * spreads each one over the cores anyway).
 */
const IMAGE_FITS_IN_FLIGHT = 2;
/** media.public-urls.issue signs a token from one indexed read (media.delivery-copies.share: a stat and an insert more). */
const PUBLIC_URL_TIMEOUT_MS = 5_000;
/** Namespace of delivery copies' ids (UUIDv5 of the item and the copy's bytes): the same image delivered twice is one copy. */
const DELIVERY_COPY_NAMESPACE = 'b3f1c2d4-6a7e-4f58-9c0d-1e2f3a4b5c6d';

// libvips keeps recent operations (with their pixels) in a cache of up to 50 MB by default; delivery never
// processes the same image twice in a row, so in this process that cache would only hold memory.
sharp.cache(false);

/** A counting semaphore: `run` waits for a free slot. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

const rejected = (code: string, message: string) =>
  new DeliveryError({ outcome: 'rejected', kind: 'validation', code, message, httpStatus: 0 });
const storageDown = () =>
  new DeliveryError({
    outcome: 'retryable',
    code: 'media_storage_unavailable',
    message: 'The media storage could not be read; trying again later.',
    httpStatus: 0,
  });

/**
 * The media of each part as a network receives them (docs/decisions.md "Delivery with media"): images read from
 * storage and re-encoded by fitImage to the network's image rules (metadata always stripped, resized to
 * fit), videos streamed from storage as they are, never held whole.
 */
@Injectable()
export class DeliveryMedia {
  private readonly fits = new Slots(IMAGE_FITS_IN_FLIGHT);

  constructor(
    @Inject(PUBLISHING_MEDIA_STORAGE) private readonly storage: MediaStorage,
    private readonly rpc: RpcClient,
  ) {}

  /** Throws a DeliveryError (rejected `validation` for media that cannot be sent, retryable when storage is down). */
  async prepare(platform: string, attached: AttachedMedia[], items: Map<string, ResolvedMedia>): Promise<OutgoingMedia[]> {
    const prepared: OutgoingMedia[] = [];
    for (const entry of attached) {
      const item = items.get(entry.media_id);
      if (!item) throw rejected('media_not_found', `Media ${entry.media_id} is no longer in the workspace's library.`);
      if (item.mime_type.startsWith('image/')) prepared.push(await this.image(platform, entry, item));
      else if (item.mime_type.startsWith('video/')) prepared.push(this.video(entry, item));
      else
        throw new DeliveryError({
          outcome: 'rejected',
          kind: 'capability',
          code: 'media_type_unsupported',
          message: `Media ${item.id} (${item.mime_type}) is neither an image nor a video.`,
          httpStatus: 0,
        });
    }
    return prepared;
  }

  private async image(platform: string, entry: AttachedMedia, item: ResolvedMedia): Promise<OutgoingMedia> {
    const fitted = await this.fits.run(async () => {
      const source = await this.read(item);
      try {
        return await fitImage(source, item.mime_type, rulesFor(platform).image);
      } catch {
        // A read that broke off mid-stream is storage's fault (try again); anything else is an image sharp cannot decode.
        if (source.errored) throw storageDown();
        throw rejected('media_unreadable', `Image ${item.id} could not be decoded.`);
      }
    });
    const bytes = fitted.bytes;
    return {
      mediaId: item.id,
      kind: 'image',
      mimeType: fitted.mimeType,
      altText: entry.alt_text ?? '',
      size: fitted.size,
      width: fitted.width,
      height: fitted.height,
      durationMs: 0,
      open: async (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
      // What a network fetching by URL receives is these bytes too (converted, no metadata), never the stored original.
      publicUrl: () => this.deliveryCopyUrl(item, bytes, fitted.mimeType),
    };
  }

  private video(entry: AttachedMedia, item: ResolvedMedia): OutgoingMedia {
    return {
      mediaId: item.id,
      kind: 'video',
      mimeType: item.mime_type,
      altText: entry.alt_text ?? '',
      size: Number(item.size),
      width: item.width,
      height: item.height,
      durationMs: Number(item.duration_ms),
      open: (range) => this.read(item, range),
      publicUrl: () => this.publicUrl(item),
    };
  }

  /** The item's public copy (media.public-urls.issue): what networks that fetch videos by URL are given. */
  private publicUrl(item: ResolvedMedia): Promise<string> {
    return this.issued(item, () =>
      this.rpc.send<PublicMediaUrl>(
        MediaPatterns.issuePublicUrl,
        { workspace_id: item.workspace_id, media_id: item.id },
        { timeoutMs: PUBLIC_URL_TIMEOUT_MS },
      ),
    );
  }

  /**
   * A public URL of an image as the network receives it (contract §4: converted where the network refuses the
   * stored type, metadata stripped): the bytes stored as the item's delivery copy, shared by the media service.
   */
  private async deliveryCopyUrl(item: ResolvedMedia, bytes: Buffer, mimeType: string): Promise<string> {
    const copyId = uuidv5(`${item.id}:${createHash('sha256').update(bytes).digest('hex')}`, DELIVERY_COPY_NAMESPACE);
    try {
      await this.storage.put(deliveryCopyKey(item.workspace_id, item.id, copyId), Readable.from([bytes]), bytes.length);
    } catch {
      throw storageDown();
    }
    const request: ShareDeliveryCopyRequest = {
      workspace_id: item.workspace_id,
      media_id: item.id,
      copy_id: copyId,
      mime_type: mimeType,
      size: bytes.length,
    };
    return this.issued(item, () =>
      this.rpc.send<PublicMediaUrl>(MediaPatterns.shareDeliveryCopy, request, { timeoutMs: PUBLIC_URL_TIMEOUT_MS }),
    );
  }

  private async issued(item: ResolvedMedia, issue: () => Promise<PublicMediaUrl>): Promise<string> {
    try {
      return (await issue()).url;
    } catch {
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'media_public_url_unavailable',
        message: `A public copy of media ${item.id} could not be issued; trying again later.`,
        httpStatus: 0,
      });
    }
  }

  /** The item's stored bytes (or the `range` of them) as a stream. */
  private async read(item: ResolvedMedia, range?: ByteRange): Promise<Readable> {
    let stream: Readable | null;
    try {
      stream = await this.storage.read(item.object_key, range);
    } catch {
      throw storageDown();
    }
    if (!stream) throw rejected('media_not_found', `The bytes of media ${item.id} are gone from storage.`);
    return stream;
  }
}

/**
 * Stand-ins for reconciliation: `findPost` matches what was sent by text and by how many media a part
 * carried, never by their bytes, so nothing is read or re-encoded.
 */
export function countedMedia(attached: AttachedMedia[]): OutgoingMedia[] {
  return attached.map((entry) => ({
    mediaId: entry.media_id,
    kind: 'image',
    mimeType: '',
    altText: entry.alt_text ?? '',
    size: 0,
    width: 0,
    height: 0,
    durationMs: 0,
    open: () => Promise.reject(new Error('reconciliation never reads media bytes')),
    publicUrl: () => Promise.reject(new Error('reconciliation never sends media')),
  }));
}
