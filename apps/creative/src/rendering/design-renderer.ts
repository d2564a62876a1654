import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import {
  type FieldError,
  type HttpReply,
  type ImageEditorDocument,
  type MediaContentTarget,
  type MediaItem,
  MediaOperations,
  type MediaUploadSession,
  type Principal,
  type RpcRequest,
  UploadSessionOperations,
  type UploadTarget,
} from '@social/contracts';
import { type MediaStorage, Problem, problems, RpcClient, SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import type { CreativeConfig } from '../config.js';
import { checkRenderBudget, renderBudgetExceeded } from './render-budget.js';
import type { RenderJob, RenderOutcome } from './render-job.js';
import { CREATIVE_MEDIA_STORAGE } from './storage.module.js';
import { RenderSlots } from './render-slots.js';
import { WarmWorkers, WorkerTimeout } from './worker-runner.js';

const RENDER_WORKER = new URL('./render-worker.js', import.meta.url);
/** The bytes of all images one page may show together (the render worker holds them all). */
const IMAGE_BYTES_BUDGET = 200 * 1024 * 1024;
const MIME_TYPES = { png: 'image/png', jpeg: 'image/jpeg' } as const;
const EXTENSIONS = { png: 'png', jpeg: 'jpg' } as const;

export interface RenderableDesign {
  id: string;
  workspaceId: string;
  document: ImageEditorDocument;
}

/**
 * Renders a page of a design server-side and stores the result as a media item of the design's
 * workspace, as the calling user, through media's own upload flow (open a session, write the bytes
 * to its key, commit, complete: media sniffs, hashes and deduplicates as for any upload).
 */
@Injectable()
export class DesignRenderer implements OnModuleDestroy {
  private readonly workers = new WarmWorkers(RENDER_WORKER);
  private readonly slots: RenderSlots;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(CREATIVE_MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(SERVICE_CONFIG) private readonly config: CreativeConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.slots = new RenderSlots(config.RENDER_CONCURRENCY);
    this.workers.warm();
  }

  onModuleDestroy(): Promise<void> {
    return this.workers.close();
  }

  async renderToMedia(
    principal: Principal,
    design: RenderableDesign,
    pageId: string,
    format: 'png' | 'jpeg' | string,
    filenameBase: string,
  ): Promise<MediaItem> {
    const kind = format === 'jpeg' ? 'jpeg' : 'png';
    const bytes = await this.render(principal, design, pageId, kind);
    return this.store(principal, design.workspaceId, `${filenameBase}.${EXTENSIONS[kind]}`, MIME_TYPES[kind], bytes);
  }

  /** The encoded page: budget first (422 before any work), then its images, then the worker under the time budget. */
  async render(principal: Principal, design: RenderableDesign, pageId: string, format: 'png' | 'jpeg'): Promise<Buffer> {
    const pageIndex = design.document.pages.findIndex((page) => page.id === pageId);
    const page = design.document.pages[pageIndex];
    checkRenderBudget(design.document, page);
    const referenced = this.referencedMedia(design.document, pageIndex);
    const images = await this.loadImages(principal, design.workspaceId, referenced);
    const job: RenderJob = {
      width: design.document.width_px,
      height: design.document.height_px,
      page,
      format,
      quality: design.document.export_defaults?.quality ?? 0.92,
      matteColor: design.document.export_defaults?.matte_color ?? '',
      images,
    };
    const release = await this.slots.acquire(this.config.RENDER_TIMEOUT_MS);
    if (!release) throw problems.unavailable('render_busy', 'Every renderer is busy; try again shortly.', 2);
    let outcome: RenderOutcome;
    try {
      outcome = await this.workers.run<RenderOutcome>(job, this.config.RENDER_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof WorkerTimeout) {
        throw renderBudgetExceeded(
          `The page did not render within the ${this.config.RENDER_TIMEOUT_MS} ms budget; ` +
            'simplify it (fewer or smaller layers, effects, images).',
        );
      }
      this.logger.warn({ err: error, design_id: design.id }, 'a render worker failed');
      if (error instanceof Error && /memory/i.test(error.message))
        throw renderBudgetExceeded('The page needs more memory to render than a render may use.');
      throw error;
    } finally {
      release();
    }
    if (!outcome.ok) {
      const errors = outcome.undecodable.flatMap((mediaId) =>
        (referenced.get(mediaId) ?? []).map((location) => ({
          location,
          message: 'is a media item that is not an image the renderer can read',
          value: mediaId,
        })),
      );
      throw problems.validation(errors, 'Some images of the page cannot be read.');
    }
    return Buffer.from(outcome.bytes);
  }

  /** Every media id the page shows (visible layers and its background), with the locations that name it. */
  private referencedMedia(document: ImageEditorDocument, pageIndex: number): Map<string, string[]> {
    const page = document.pages[pageIndex];
    const at = `document.pages[${pageIndex}]`;
    const found = new Map<string, string[]>();
    const add = (mediaId: string | undefined, location: string) => {
      if (!mediaId) return;
      found.set(mediaId, [...(found.get(mediaId) ?? []), location]);
    };
    if (page.background?.type === 'image') add(page.background.image?.media_id, `${at}.background.image.media_id`);
    (page.layers ?? []).forEach((layer, index) => {
      if (layer.type === 'image' && layer.visible !== false) add(layer.image?.media_id, `${at}.layers[${index}].image.media_id`);
    });
    return found;
  }

  /**
   * Reads each image through media as the caller: an id that is not a ready item of the design's
   * workspace (missing, deleted, another workspace's, still uploading) is 422 at every location naming it.
   */
  private async loadImages(principal: Principal, workspaceId: string, referenced: Map<string, string[]>): Promise<RenderJob['images']> {
    const errors: FieldError[] = [];
    const targets: Array<{ mediaId: string; target: MediaContentTarget }> = [];
    for (const [mediaId, locations] of referenced) {
      const refuse = (message: string) => locations.forEach((location) => errors.push({ location, message, value: mediaId }));
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(mediaId)) {
        refuse('is not a media item of the workspace');
        continue;
      }
      try {
        const item = await this.rpc.send<MediaItem>(MediaOperations.get.subject, this.envelope(principal, { params: { id: mediaId } }));
        if (item.workspace_id !== workspaceId) refuse('is not a media item of the workspace');
        else if (!item.mime_type.startsWith('image/')) refuse('is a media item that is not an image');
        else
          targets.push({
            mediaId,
            target: await this.rpc.send<MediaContentTarget>(
              MediaOperations.content.subject,
              this.envelope(principal, { params: { id: mediaId } }),
            ),
          });
      } catch (error) {
        if (error instanceof Problem && (error.status === 404 || error.status === 409 || error.status === 403))
          refuse('is not a ready media item of the workspace');
        else throw error;
      }
    }
    if (errors.length > 0) throw problems.validation(errors, 'Some images of the page are not media items of the workspace.');
    const total = targets.reduce((sum, { target }) => sum + target.size, 0);
    if (total > IMAGE_BYTES_BUDGET)
      throw renderBudgetExceeded(`The page's images hold ${total} bytes; a render reads at most ${IMAGE_BYTES_BUDGET}.`);
    const images: RenderJob['images'] = [];
    for (const { mediaId, target } of targets) {
      const stream = await this.storage.read(target.object_key);
      if (!stream) {
        for (const location of referenced.get(mediaId) ?? [])
          errors.push({ location, message: 'is a media item whose bytes are gone', value: mediaId });
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
      images.push({ mediaId, bytes: new Uint8Array(Buffer.concat(chunks)) });
    }
    if (errors.length > 0) throw problems.validation(errors, 'Some images of the page cannot be read.');
    return images;
  }

  /** Media's upload flow, as the caller (so media checks the role and the workspace): the new or deduplicated ready item. */
  private async store(principal: Principal, workspaceId: string, filename: string, mimeType: string, bytes: Buffer): Promise<MediaItem> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const opened = await this.rpc.send<HttpReply<MediaUploadSession>>(
      UploadSessionOperations.create.subject,
      this.envelope(principal, { body: { workspace_id: workspaceId, filename, size: bytes.length, mime_type: mimeType, sha256 } }),
    );
    const session = opened.body;
    if (session.deduped)
      return this.rpc.send<MediaItem>(MediaOperations.get.subject, this.envelope(principal, { params: { id: session.media_id } }));
    const params = { id: session.media_id };
    const target = await this.rpc.send<UploadTarget>(UploadSessionOperations.target.subject, this.envelope(principal, { params }));
    await this.storage.put(target.object_key, Readable.from([bytes]), bytes.length);
    await this.rpc.send(
      UploadSessionOperations.commit.subject,
      this.envelope(principal, { params, body: { object_key: target.object_key } }),
    );
    return this.rpc.send<MediaItem>(
      UploadSessionOperations.complete.subject,
      this.envelope(principal, { params, body: { workspace_id: workspaceId } }),
      { timeoutMs: 10_000 },
    );
  }

  private envelope(principal: Principal, parts: { params?: Record<string, string>; body?: unknown }): RpcRequest {
    return { principal, params: parts.params ?? {}, query: {}, body: parts.body ?? null, idempotencyKey: null, clientIp: '' };
  }
}
