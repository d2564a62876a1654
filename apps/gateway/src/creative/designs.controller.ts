import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateDesignRequest,
  CreateRevisionRequest,
  DesignOperations,
  ExportDesignRequest,
  ImageEditorDesign,
  ImageEditorDesignList,
  ImageEditorRevision,
  ImageEditorRevisionList,
  ListDesignsQuery,
  ListRevisionsQuery,
  MediaItem,
  RevisionSummary,
  UpdateDesignRequest,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocumentBody } from '../http/body-limits.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

const DOCUMENT_RULES =
  'The document (ImageEditorDocument) is checked member by member, each problem at its location ' +
  '(`body.document.pages[0].layers[2].type`): ' +
  'width_px and height_px 1–8,192, 1–50 pages, page ids unique, layer ids unique in their page, layer `type` one of text, image, shape, ' +
  'paint, group, ' +
  'a `parent_id` naming a group layer of the page, every nested member of its type; unknown members are refused. ' +
  "Stored and answered with the document's, pages' and layers' own members filled with their defaults; at most 5 MiB so stored " +
  '(422 at `body.document`). The body may be up to 5 MiB (`DOCUMENT_BODY_LIMIT_BYTES`; 413 beyond).';

@ApiTags('Image editor')
@ApiBearerAuth()
@Controller('image-editor/designs')
export class DesignsController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @DocumentBody()
  @ApiOperation({
    summary: 'Create a design (editors) from a document or a template',
    description:
      'Exactly one of `document` and `template_id` ' +
      `(a built-in preset key or a template id of the workspace, whose document is copied; ` +
      `unknown or another workspace's: 422 at \`body.template_id\`). Records revision 1, a checkpoint without a preview. ${DOCUMENT_RULES}`,
  })
  @Returns(ImageEditorDesign, 201)
  @Refuses(400, 403, 413, 415, 422)
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateDesignRequest)) body: CreateDesignRequest,
  ): Promise<ImageEditorDesign> {
    const design = await this.forward.send(DesignOperations.create, req, { body });
    reply.header('location', `/image-editor/designs/${design.id}`);
    return design;
  }

  @Get()
  @ApiOperation({
    summary: "The workspace's designs, most recently updated first, a page at a time",
    description:
      'A page holds at most `limit` designs, and fewer once their documents reach 4 MiB (then `next_cursor` continues; a page always ' +
      'holds one).',
  })
  @Returns(ImageEditorDesignList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListDesignsQuery)) query: ListDesignsQuery): Promise<ImageEditorDesignList> {
    return this.forward.send(DesignOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One design' })
  @Returns(ImageEditorDesign)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<ImageEditorDesign> {
    return this.forward.send(DesignOperations.get, req, { params: { id } });
  }

  @Patch(':id')
  @DocumentBody()
  @ApiOperation({
    summary: 'Save a design (editors): an autosave revision',
    description:
      '`name` and/or `document` (at least one, else 422 at `body`), each replacing the stored one. ' +
      `Autosaves expire after 7 days and only the newest 50 of a design are kept. ${DOCUMENT_RULES}`,
  })
  @Returns(ImageEditorDesign)
  @Refuses(400, 403, 404, 413, 415, 422)
  update(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(UpdateDesignRequest)) body: UpdateDesignRequest,
  ): Promise<ImageEditorDesign> {
    return this.forward.send(DesignOperations.update, req, { params: { id }, body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a design and its revisions (editors); exported media items stay in the library' })
  @ReturnsNothing()
  @Refuses(403, 404)
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(DesignOperations.delete, req, { params: { id } });
  }

  @Post(':id/export')
  @ApiOperation({
    summary: 'Render a page (editors) into a media item of the workspace library',
    description:
      'The page `page_id` (default the first; unknown: 422 at `body.page_id`) is rendered server-side (background, shapes, text, images ' +
      'from media, ' +
      'paint strokes) as PNG (default) or JPEG, stored as a media item (`<design id>-<page id>.png`, deduplicated like any upload) and ' +
      'answered; ' +
      "the page's `latest_export_media_id` then names it. A page over the render budget — more than 8,192×8,192 px, more than 200 " +
      'layers, ' +
      'or slower than the render time budget (7 s by default, so the answer comes before the gateway gives up) — is 422 ' +
      '`render_budget_exceeded`. ' +
      'An image (layer or background) that is not a ready image item of the workspace is 422 at its place in the stored document ' +
      '(`document.pages[0].layers[3].image.media_id`). A full media store is 507 `storage_full`.',
  })
  @Returns(MediaItem, 201)
  @Refuses(400, 403, 404, 413, 415, 422, 507, 'render_budget_exceeded', 'storage_full')
  async export(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('id') id: string,
    @Body(new ValidBody(ExportDesignRequest)) body: ExportDesignRequest,
  ): Promise<MediaItem> {
    const item = await this.forward.send(DesignOperations.export, req, { params: { id }, body });
    reply.header('location', `/media/${item.id}`);
    return item;
  }

  @Post(':id/revisions')
  @ApiOperation({
    summary: 'Make a checkpoint revision (editors); it never expires',
    description:
      "The first page is rendered into a media item: the revision's `cover_preview_media_id`, the design's `preview_media_id` and the " +
      "page's " +
      '`preview_media_id` (a page that cannot be rendered leaves them as they were).',
  })
  @Returns(RevisionSummary, 201)
  @Refuses(400, 403, 404, 413, 415, 422)
  async checkpoint(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('id') id: string,
    @Body(new ValidBody(CreateRevisionRequest)) body: CreateRevisionRequest,
  ): Promise<RevisionSummary> {
    const revision = await this.forward.send(DesignOperations.createRevision, req, { params: { id }, body });
    reply.header('location', `/image-editor/designs/${id}/revisions/${revision.id}`);
    return revision;
  }

  @Get(':id/revisions')
  @ApiOperation({ summary: "The design's revisions, newest first, a page at a time (expired autosaves are gone)" })
  @Returns(ImageEditorRevisionList)
  @Refuses(404, 422)
  listRevisions(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Query(new ValidQuery(ListRevisionsQuery)) query: ListRevisionsQuery,
  ): Promise<ImageEditorRevisionList> {
    return this.forward.send(DesignOperations.listRevisions, req, { params: { id }, query: { ...query } });
  }

  @Get(':id/revisions/:revision_id')
  @ApiOperation({ summary: 'One revision of a design, with its document' })
  @Returns(ImageEditorRevision)
  @Refuses(404)
  getRevision(@Req() req: FastifyRequest, @Param('id') id: string, @Param('revision_id') revisionId: string): Promise<ImageEditorRevision> {
    return this.forward.send(DesignOperations.getRevision, req, { params: { id, revision_id: revisionId } });
  }

  @Post(':id/revisions/:revision_id/restore')
  @ApiOperation({
    summary: 'Restore a revision (editors): a new head revision (`restore`) with its document; the revision itself stays',
    description: 'Answers the design. An unknown or expired revision is 404.',
  })
  @Returns(ImageEditorDesign)
  @Refuses(403, 404)
  restore(@Req() req: FastifyRequest, @Param('id') id: string, @Param('revision_id') revisionId: string): Promise<ImageEditorDesign> {
    return this.forward.send(DesignOperations.restoreRevision, req, { params: { id, revision_id: revisionId } });
  }
}
