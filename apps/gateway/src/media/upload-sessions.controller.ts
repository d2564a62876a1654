import { Body, Controller, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  CompleteUploadSessionRequest,
  CreateUploadSessionRequest,
  MediaItem,
  MediaUploadSession,
  UploadSessionOperations,
} from '@social/contracts';
import { type MediaStorage, Problem, uploadSessionExpired, UploadTokens } from '@social/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pipeline } from 'node:stream/promises';
import { PassThrough, type Readable, type Transform } from 'node:stream';
import type { Logger } from 'pino';
import { Public } from '../auth/public.decorator.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { baseUrlOf } from '../http/base-url.js';
import { AcceptsIdempotencyKey, unwrapHttpReply } from '../http/http-reply.js';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { GATEWAY_LOGGER } from '../logger.js';
import { Forwarder } from '../rpc/forwarder.js';
import { ByteLimit, GATEWAY_MEDIA_STORAGE, SniffedTypeLimit, uploadTooLarge } from './media-storage.js';

const tokenInvalid = () =>
  new Problem(403, 'upload_token_invalid', 'The upload URL is not valid: its token is missing or has been altered.');

@ApiTags('Media')
@Controller('media/upload-session')
export class UploadSessionsController {
  private readonly tokens: UploadTokens;

  constructor(
    private readonly forward: Forwarder,
    @Inject(GATEWAY_MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {
    this.tokens = new UploadTokens(config.SECRETS_KEY);
  }

  @Post()
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Open an upload session (editors)',
    description:
      'Limits: 50 MiB, videos 4 GiB (instance settings; 413 `media_too_large` at `body.size`). 201 with where to PUT the bytes ' +
      '(a signed gateway URL, or a presigned S3 URL when S3 storage is configured) and `complete_url`; 200 `deduped: true` with the ' +
      'existing `media_id` when `sha256` and `size` match a ready item of the workspace (every upload member "" and `headers` {}).',
  })
  @AcceptsIdempotencyKey()
  @Returns(MediaUploadSession, 201)
  @ApiResponse({ status: 200, type: MediaUploadSession, description: 'deduplicated: a ready item has these bytes' })
  @Refuses(400, 403, 413, 415, 422, 'media_too_large')
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateUploadSessionRequest)) body: CreateUploadSessionRequest,
  ): Promise<MediaUploadSession> {
    const answer = await this.forward.send(UploadSessionOperations.create, req, { body });
    const session = unwrapHttpReply(reply, answer);
    if (answer.status === 201) reply.header('location', `/media/${session.media_id}`);
    // The service answers gateway URLs relative to {base_url}.
    const baseUrl = baseUrlOf(req, this.config.PUBLIC_BASE_URL);
    return {
      ...session,
      complete_url: session.complete_url && `${baseUrl}${session.complete_url}`,
      upload: { ...session.upload, url: session.upload.url.startsWith('/') ? `${baseUrl}${session.upload.url}` : session.upload.url },
    };
  }

  @Put(':id/content')
  @Public()
  @ApiOperation({
    summary: "The upload session's signed upload URL: the file's raw bytes (no bearer token)",
    description:
      'Any Content-Type (the one in `upload.headers`); the body is streamed into storage, never held whole. A missing or altered ' +
      '`token` is 403 `upload_token_invalid`, an expired session 410 `upload_session_expired`, a completed one 409 ' +
      '`upload_session_completed` (also when it completes while the body is streaming: those bytes are dropped, the item keeps ' +
      'its own); a body longer than the declared size is cut off with 413 `media_too_large` and nothing is kept, and so are bytes ' +
      'that are not a video once they pass the non-video limit (a session declared as a video; the type is sniffed from the first 512 ' +
      'KiB). ' +
      'Sending again replaces what was sent. A full media store (MEDIA_OBJECT_STORE_MAX_BYTES) is 507 `storage_full`.',
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiQuery({ name: 'token', required: true, type: String })
  @ApiResponse({ status: 204, description: 'stored' })
  @Refuses(
    403,
    404,
    409,
    410,
    413,
    507,
    'upload_token_invalid',
    'upload_session_completed',
    'upload_session_expired',
    'media_too_large',
    'storage_full',
  )
  async upload(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const check = this.tokens.check(id, (req.query as Record<string, unknown> | undefined)?.token);
    if (check === 'invalid') throw tokenInvalid();
    if (check === 'expired') throw uploadSessionExpired();
    const target = await this.forward.send(UploadSessionOperations.target, req, { params: { id } });
    const declared = Number(req.headers['content-length']);
    // The rest of a refused body is not read: the connection closes after the answer.
    if (Number.isFinite(declared) && declared > target.size) {
      reply.header('connection', 'close');
      throw uploadTooLarge(target.size);
    }
    const source = (req.body as Readable | undefined) ?? new PassThrough().end();
    const limits: Transform[] = [new ByteLimit(target.size)];
    // Only a session allowed more than non-video bytes may take (a video was declared) needs its bytes sniffed.
    const nonVideoLimit = target.non_video_size_limit;
    if (nonVideoLimit !== undefined && target.size > nonVideoLimit) limits.push(new SniffedTypeLimit(nonVideoLimit));
    const limited = limits.at(-1)!;
    let tooLarge: Problem | undefined;
    for (const limit of limits) {
      limit.on('error', (error) => {
        if (error instanceof Problem) tooLarge ??= error;
      });
    }
    // The key is this PUT's own: whatever happens here, no other upload's bytes (nor a ready item's) are touched.
    const dropStored = () =>
      this.storage
        .delete(target.object_key)
        .catch((cause: unknown) => this.logger.warn({ err: cause, object_key: target.object_key }, 'could not delete an upload'));
    try {
      await Promise.all([pipeline([source, ...limits]).catch(() => undefined), this.storage.put(target.object_key, limited, target.size)]);
    } catch (error) {
      await dropStored();
      reply.header('connection', 'close');
      if (tooLarge) throw tooLarge;
      if (error instanceof Problem) throw error;
      if (source.destroyed && !source.readableEnded) {
        // The client went away mid-upload: nothing is kept, and nobody is left to answer.
        this.logger.info({ request_id: req.id }, 'upload abandoned by the client');
      }
      throw error;
    }
    try {
      // The stored bytes become the session's only while it is still pending (completion may have run meanwhile).
      await this.forward.send(UploadSessionOperations.commit, req, { params: { id }, body: { object_key: target.object_key } });
    } catch (error) {
      // Refused (completed, expired, gone): nobody will read these bytes. A lost answer (5xx) may have committed them: kept.
      if (error instanceof Problem && error.status < 500) await dropStored();
      throw error;
    }
    await reply.status(204).send();
  }

  @Post(':id/complete')
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Complete an upload (editors): checks the size, computes SHA-256, sniffs the real type, deduplicates',
    description:
      'SVG, HTML, scripts and executables are 422 at `body.content`; bytes missing or short of the declared size 409 ' +
      '`upload_incomplete`; ' +
      'an expired session 410. When a ready item of the workspace has the same bytes, that item is answered and this copy dropped. ' +
      'Repeating it answers the same item.',
  })
  @Returns(MediaItem)
  @Refuses(400, 403, 404, 409, 410, 413, 415, 422, 'upload_incomplete')
  complete(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(CompleteUploadSessionRequest)) body: CompleteUploadSessionRequest,
  ): Promise<MediaItem> {
    return this.forward.send(UploadSessionOperations.complete, req, { params: { id }, body });
  }
}
