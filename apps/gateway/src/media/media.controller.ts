import { Body, Controller, Delete, Get, Headers, Inject, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ListMediaQuery, MediaItem, MediaList, MediaOperations, SetMediaTagsRequest } from '@social/contracts';
import { type MediaStorage, Problem, problems } from '@social/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';
import { GATEWAY_MEDIA_STORAGE, parseRange } from './media-storage.js';

@ApiTags('Media')
@ApiBearerAuth()
@Controller('media')
export class MediaController {
  constructor(
    private readonly forward: Forwarder,
    @Inject(GATEWAY_MEDIA_STORAGE) private readonly storage: MediaStorage,
  ) {}

  @Get()
  @ApiOperation({ summary: "The workspace's media library (ready items), newest first, a page at a time; `tag_id` narrows to one tag" })
  @Returns(MediaList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListMediaQuery)) query: ListMediaQuery): Promise<MediaList> {
    return this.forward.send(MediaOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One media item (also while its upload is pending)' })
  @Returns(MediaItem)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<MediaItem> {
    return this.forward.send(MediaOperations.get, req, { params: { id } });
  }

  @Get(':id/content')
  @ApiOperation({
    summary: "The item's bytes, with its type and Content-Length; one `Range: bytes=a-b` answers 206 (416 when it starts past the end)",
    description: 'An item whose upload is not complete is 409 `media_not_ready`.',
  })
  @ApiHeader({ name: 'Range', required: false, description: 'one range, `bytes=first-last`, `bytes=first-` or `bytes=-suffix`' })
  @ApiProduces('application/octet-stream')
  @ApiResponse({
    status: 200,
    description: 'the bytes',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({ status: 206, description: 'the range asked for' })
  @Refuses(404, 409, 416, 'media_not_ready')
  async content(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Headers('range') rangeHeader?: string,
  ): Promise<void> {
    const target = await this.forward.send(MediaOperations.content, req, { params: { id } });
    const range = parseRange(rangeHeader, target.size);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${target.size}`);
      throw new Problem(416, 'range_not_satisfiable', `The range starts past the end of the ${target.size} bytes.`);
    }
    const stream = await this.storage.read(target.object_key, range ?? undefined);
    if (!stream) throw problems.notFound('The bytes of this media item are gone.');
    reply
      .header('content-type', target.mime_type || 'application/octet-stream')
      .header('x-content-type-options', 'nosniff')
      .header('accept-ranges', 'bytes')
      // Contract §6: stored bytes are never rendered as a page of ours: downloaded, sandboxed, never sniffed.
      .header('content-disposition', attachmentDisposition(target.filename))
      .header('content-security-policy', 'sandbox');
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

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a media item and its bytes (editors)',
    description: "An item holding a video project's asset goes only with that asset (409 `media_of_project_asset`).",
  })
  @ReturnsNothing()
  @Refuses(403, 404, 409, 'media_of_project_asset')
  async delete(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(MediaOperations.delete, req, { params: { id } });
  }

  @Put(':id/tags')
  @ApiOperation({ summary: "Replace an item's tags (editors); tags must be of the item's workspace (422 at `body.tag_ids[i]`)" })
  @Returns(MediaItem)
  @Refuses(400, 403, 404, 413, 415, 422)
  setTags(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(SetMediaTagsRequest)) body: SetMediaTagsRequest,
  ): Promise<MediaItem> {
    return this.forward.send(MediaOperations.setTags, req, { params: { id }, body });
  }
}

/** `attachment` with the filename: an ASCII fallback (quotes, backslashes and controls replaced) and the exact UTF-8 name. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
