import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateProjectAssetRequest,
  CreateVideoProjectRequest,
  DOCUMENT_JSON_MEMBER,
  ListVideoProjectsQuery,
  ListVideoRevisionsQuery,
  ProjectAsset,
  ProjectAssetList,
  ProjectAssetOperations,
  ReplaceVideoProjectRequest,
  RestoreVideoRevisionRequest,
  VideoProject,
  VideoProjectList,
  VideoProjectOperations,
  VideoProjectRevision,
  VideoProjectSummary,
  type VideoDocument,
  videoDocumentError,
  videoDocumentJsonError,
  VideoRevisionList,
} from '@social/contracts';
import { problems } from '@social/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocumentBody } from '../http/body-limits.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { SplicedJson } from '../http/spliced-json.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidDocumentBody } from '../http/valid-document-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

const DOCUMENT_SIZE =
  'The body may be up to 5 MiB (`DOCUMENT_BODY_LIMIT_BYTES`; 413 beyond), the document at most 5 MiB as JSON (422 at `body.document`).';
const DOCUMENT =
  "The document is the client's own JSON object: any members at any depth are stored and answered unchanged, never refused as " +
  'unexpected; ' +
  'one that is not an object is 422 at `body.document`. ' +
  'Project assets (`POST /video-projects/{id}/assets`) whose id it holds as a whole string or key are `required`: ' +
  '`sync_status` is `attention` (`attention_reason` `asset_failed`) when one failed, else `pending` while one is not ready, else ' +
  '`synced`. ';
/**
 * A written document crosses NATS once, as the JSON text made here (the service stores that text and
 * answers without it), and the answer splices the same text in: one serialization per write.
 */
function documentWrite<T extends { document: VideoDocument }>({ document, ...members }: T): { body: object; json: string } {
  const json = JSON.stringify(document);
  const error = videoDocumentJsonError(json, 'body.document');
  if (error) throw problems.validation([error], `${error.location} ${error.message}.`);
  return { body: { ...members, [DOCUMENT_JSON_MEMBER]: json }, json };
}

const withDocument = (project: VideoProjectSummary, json: string): SplicedJson => new SplicedJson({ ...project }, 'document', json);

const TRASHED = 'A project in the trash is 409 `project_trashed` (restore it first).';

@ApiTags('Video projects')
@ApiBearerAuth()
@Controller('video-projects')
export class VideoProjectsController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @DocumentBody({ freeMembers: true })
  @ApiOperation({
    summary: 'Create a video project (editors): head_revision 1',
    description: DOCUMENT + DOCUMENT_SIZE,
  })
  @Returns(VideoProject, 201)
  @Refuses(400, 403, 413, 415, 422)
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidDocumentBody(CreateVideoProjectRequest, videoDocumentError)) body: CreateVideoProjectRequest,
  ): Promise<SplicedJson> {
    const write = documentWrite(body);
    const project = await this.forward.send(VideoProjectOperations.create, req, { body: write.body });
    reply.header('location', `/video-projects/${project.id}`);
    return withDocument(project, write.json);
  }

  @Get()
  @ApiOperation({
    summary: "The workspace's video projects, newest first (without documents)",
    description: '`trashed=true` lists the trash instead. Cursors are bound to `workspace_id` and `trashed` (422 otherwise).',
  })
  @Returns(VideoProjectList)
  @Refuses(403, 422)
  list(
    @Req() req: FastifyRequest,
    @Query(new ValidQuery(ListVideoProjectsQuery)) query: ListVideoProjectsQuery,
  ): Promise<VideoProjectList> {
    return this.forward.send(VideoProjectOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One video project with its head document (a trashed one too, with `trashed_at`)' })
  @Returns(VideoProject)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<VideoProject> {
    return this.forward.send(VideoProjectOperations.get, req, { params: { id } });
  }

  @Put(':id')
  @DocumentBody({ freeMembers: true })
  @ApiOperation({
    summary: 'Replace the document (and name): a new head revision (editors)',
    description:
      'Based on `expected_head_revision`: another head is 409 `revision_conflict` with `current_revision`, and nothing is written; of ' +
      'racing replaces ' +
      `exactly one wins. \`workspace_id\` must be the project's own (422). ${TRASHED} ${DOCUMENT}${DOCUMENT_SIZE}`,
  })
  @Returns(VideoProject)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'revision_conflict')
  async replace(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidDocumentBody(ReplaceVideoProjectRequest, videoDocumentError)) body: ReplaceVideoProjectRequest,
  ): Promise<SplicedJson> {
    const write = documentWrite(body);
    return withDocument(await this.forward.send(VideoProjectOperations.replace, req, { params: { id }, body: write.body }), write.json);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Move a video project to the trash (editors)',
    description:
      'Answers the trashed project (`trashed_at`, `retention_expires_at` 30 days later). It leaves the list (see `trashed=true`), can ' +
      'be restored until ' +
      'then, and is purged after it with its revisions and assets. Trashing it again changes nothing.',
  })
  @Returns(VideoProject)
  @Refuses(403, 404)
  trash(@Req() req: FastifyRequest, @Param('id') id: string): Promise<VideoProject> {
    return this.forward.send(VideoProjectOperations.delete, req, { params: { id } });
  }

  @Post(':id/restore')
  @ApiOperation({ summary: 'Take a video project out of the trash (editors); an active one answers itself, a purged one is 404' })
  @Returns(VideoProject)
  @Refuses(403, 404)
  restore(@Req() req: FastifyRequest, @Param('id') id: string): Promise<VideoProject> {
    return this.forward.send(VideoProjectOperations.restore, req, { params: { id } });
  }

  @Post(':id/restore-revision')
  @ApiOperation({
    summary: 'Restore a revision as a new head revision (editors)',
    description:
      "The revision's name and document become the next head revision; the revision itself stays. " +
      `An unknown revision is 404, a non-positive one 422. ${TRASHED}`,
  })
  @Returns(VideoProject)
  @Refuses(400, 403, 404, 409, 413, 415, 422)
  restoreRevision(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(RestoreVideoRevisionRequest)) body: RestoreVideoRevisionRequest,
  ): Promise<VideoProject> {
    return this.forward.send(VideoProjectOperations.restoreRevision, req, { params: { id }, body });
  }

  @Get(':id/revisions')
  @ApiOperation({ summary: "The project's revisions, newest first (without documents)" })
  @Returns(VideoRevisionList)
  @Refuses(404, 422)
  listRevisions(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Query(new ValidQuery(ListVideoRevisionsQuery)) query: ListVideoRevisionsQuery,
  ): Promise<VideoRevisionList> {
    return this.forward.send(VideoProjectOperations.listRevisions, req, { params: { id }, query: { ...query } });
  }

  @Get(':id/revisions/:revision')
  @ApiOperation({ summary: 'One revision with its document; an unknown one is 404, a non-positive one 422 at `path.revision`' })
  @Returns(VideoProjectRevision)
  @Refuses(404, 422)
  getRevision(@Req() req: FastifyRequest, @Param('id') id: string, @Param('revision') revision: string): Promise<VideoProjectRevision> {
    return this.forward.send(VideoProjectOperations.getRevision, req, { params: { id, revision } });
  }

  @Post(':id/assets')
  @ApiOperation({
    summary: 'Reserve a project asset (editors): pending',
    description:
      'Its bytes arrive through an upload session (`POST /media/upload-session`) with `project_asset_id` (and the same `size`); ' +
      'when that upload completes the asset becomes `ready` with its `media_id`, or `failed` with an `attention_reason`. ' +
      'Its media item never appears in the workspace library. At most 500 assets per project ' +
      `(409 \`too_many_project_assets\`). ${TRASHED}`,
  })
  @Returns(ProjectAsset, 201)
  @Refuses(400, 403, 404, 409, 413, 415, 422, 'too_many_project_assets')
  async createAsset(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('id') id: string,
    @Body(new ValidBody(CreateProjectAssetRequest)) body: CreateProjectAssetRequest,
  ): Promise<ProjectAsset> {
    const asset = await this.forward.send(ProjectAssetOperations.create, req, { params: { id }, body });
    reply.header('location', `/video-projects/${asset.project_id}/assets/${asset.id}`);
    return asset;
  }

  @Get(':id/assets')
  @ApiOperation({ summary: "The project's assets, oldest first; `required` tells which the head document names" })
  @Returns(ProjectAssetList)
  @Refuses(404)
  listAssets(@Req() req: FastifyRequest, @Param('id') id: string): Promise<ProjectAssetList> {
    return this.forward.send(ProjectAssetOperations.list, req, { params: { id } });
  }

  @Get(':id/assets/:asset_id')
  @ApiOperation({ summary: 'One project asset' })
  @Returns(ProjectAsset)
  @Refuses(404)
  getAsset(@Req() req: FastifyRequest, @Param('id') id: string, @Param('asset_id') assetId: string): Promise<ProjectAsset> {
    return this.forward.send(ProjectAssetOperations.get, req, { params: { id, asset_id: assetId } });
  }

  @Delete(':id/assets/:asset_id')
  @ApiOperation({
    summary: 'Delete a project asset (editors); its media item goes too',
    description: `It no longer counts for \`sync_status\`, even if the document still names it. ${TRASHED}`,
  })
  @ReturnsNothing()
  @Refuses(403, 404, 409)
  async deleteAsset(@Req() req: FastifyRequest, @Param('id') id: string, @Param('asset_id') assetId: string): Promise<void> {
    await this.forward.send(ProjectAssetOperations.delete, req, { params: { id, asset_id: assetId } });
  }
}
