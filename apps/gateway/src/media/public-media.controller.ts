import { Controller, Get, Headers, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { MediaContentTarget, MediaPatterns, type PublicContentRequest } from '@social/contracts';
import { type MediaStorage, Problem, problems, PublicMediaTokens, RpcClient } from '@social/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Public } from '../auth/public.decorator.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { Refuses } from '../http/returns.decorator.js';
import { GATEWAY_MEDIA_STORAGE, parseRange } from './media-storage.js';

const NO_SUCH_COPY = 'No public copy of a media item is at this address.';

/**
 * Public copies for networks that fetch media by URL: `{base_url}/media/public/{token}`, the token
 * (signed by the media service, checked here without asking anyone) being the only credential.
 */
@ApiTags('Media')
@Controller('media/public')
export class PublicMediaController {
  private readonly tokens: PublicMediaTokens;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.tokens = new PublicMediaTokens(config.SECRETS_KEY);
  }

  @Get(':token')
  @Public()
  @ApiOperation({
    summary: "A media item's public copy (no bearer token: the signed URL is the credential), for networks that fetch media by URL",
    description:
      'Issued to services for 24 hours. HEAD answers the headers alone; one `Range: bytes=a-b` answers 206 with `Content-Range` ' +
      '(416 when it starts past the end). An altered or forged token is 403 `public_url_invalid`, an expired one 410 ' +
      '`public_url_expired`, an address that is no token or whose item was deleted 404.',
  })
  @ApiHeader({ name: 'Range', required: false, description: 'one range, `bytes=first-last`, `bytes=first-` or `bytes=-suffix`' })
  @ApiProduces('application/octet-stream')
  @ApiResponse({
    status: 200,
    description: 'the bytes, with the item type',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({ status: 206, description: 'the range asked for' })
  @Refuses(403, 404, 410, 416, 'public_url_invalid', 'public_url_expired')
  async content(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('token') token: string,
    @Headers('range') rangeHeader?: string,
  ): Promise<void> {
    const check = this.tokens.check(token);
    if (check.result === 'malformed') throw problems.notFound(NO_SUCH_COPY);
    if (check.result === 'invalid')
      throw new Problem(403, 'public_url_invalid', 'The public URL is not valid: its token has been altered.');
    if (check.result === 'expired')
      throw new Problem(410, 'public_url_expired', 'The public URL has expired (they last 24 hours); ask for a new one.');
    const target = await this.rpc.send<MediaContentTarget>(
      MediaPatterns.publicContent,
      { media_id: check.mediaId } satisfies PublicContentRequest,
      { requestId: req.id },
    );
    const range = parseRange(rangeHeader, target.size);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${target.size}`);
      throw new Problem(416, 'range_not_satisfiable', `The range starts past the end of the ${target.size} bytes.`);
    }
    // HEAD: the headers alone (an empty stream keeps the Content-Length set here), storage is not read.
    const stream = req.method === 'HEAD' ? Readable.from([]) : await this.storage.read(target.object_key, range ?? undefined);
    if (!stream) throw problems.notFound(NO_SUCH_COPY);
    reply
      .header('content-type', target.mime_type || 'application/octet-stream')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', 'sandbox')
      .header('accept-ranges', 'bytes')
      // The URL is a credential that expires: no shared cache keeps the bytes past it.
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(target.filename)}`);
    if (range) {
      reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${target.size}`)
        .header('content-length', range.end - range.start + 1);
    } else {
      reply.status(200).header('content-length', target.size);
    }
    await reply.send(stream);
  }
}
