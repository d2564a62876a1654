import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateVideoProjectRequest,
  DOCUMENT_JSON_MEMBER,
  ListVideoProjectsQuery,
  ListVideoRevisionsQuery,
  ReplaceVideoProjectRequest,
  RestoreVideoRevisionRequest,
  RpcRequest,
  VideoProject,
  VideoProjectList,
  VideoProjectPatterns,
  videoDocumentJsonError,
  VideoProjectRevision,
  VideoProjectSummary,
  VideoRevisionList,
} from '@social/contracts';
import { pathId, problems, requirePrincipal, validateInput, validateInputWithDocument } from '@social/platform';
import { NO_SUCH_PROJECT } from './video-project.row.js';
import { VideoProjectsService } from './video-projects.service.js';

type ById = RpcRequest<unknown, unknown, { id: string; revision?: string }>;

/** A revision number in the path: not an integer is 404 (no such revision), a non-positive one 422. */
function revisionOf(value: unknown): number {
  const text = typeof value === 'string' ? value : '';
  if (!/^-?\d{1,10}$/.test(text) || Number(text) > 2_147_483_647) throw problems.notFound('The video project has no such revision.');
  if (Number(text) < 1) throw problems.invalid('path.revision', 'must be a positive integer', Number(text));
  return Number(text);
}

/**
 * A body with a document, which arrives as the JSON text the gateway made after checking it in depth
 * (`document_json`): its members are checked again as on every route, the text only for its shape and size.
 */
function validateDocumentBody<T extends object>(type: new () => T, body: unknown): { input: T; documentJson: string } {
  const input = validateInputWithDocument(type, body, 'body', videoDocumentJsonError, DOCUMENT_JSON_MEMBER);
  const { [DOCUMENT_JSON_MEMBER]: documentJson, ...members } = input as T & { [DOCUMENT_JSON_MEMBER]: string };
  return { input: members as T, documentJson };
}

@Controller()
export class VideoProjectsHandler {
  constructor(private readonly projects: VideoProjectsService) {}

  @MessagePattern(VideoProjectPatterns.create)
  async create(@Payload() req: RpcRequest): Promise<VideoProjectSummary> {
    const principal = requirePrincipal(req);
    const { input, documentJson } = validateDocumentBody(CreateVideoProjectRequest, req.body);
    return this.projects.create(principal, input, documentJson);
  }

  @MessagePattern(VideoProjectPatterns.list)
  list(@Payload() req: RpcRequest): Promise<VideoProjectList> {
    const principal = requirePrincipal(req);
    return this.projects.list(principal, validateInput(ListVideoProjectsQuery, req.query, 'query'));
  }

  @MessagePattern(VideoProjectPatterns.get)
  get(@Payload() req: ById): Promise<VideoProject> {
    return this.projects.get(requirePrincipal(req), pathId(req.params.id, NO_SUCH_PROJECT));
  }

  @MessagePattern(VideoProjectPatterns.replace)
  async replace(@Payload() req: ById): Promise<VideoProjectSummary> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_PROJECT);
    const { input, documentJson } = validateDocumentBody(ReplaceVideoProjectRequest, req.body);
    return this.projects.replace(principal, id, input, documentJson);
  }

  @MessagePattern(VideoProjectPatterns.delete)
  trash(@Payload() req: ById): Promise<VideoProject> {
    return this.projects.trash(requirePrincipal(req), pathId(req.params.id, NO_SUCH_PROJECT));
  }

  @MessagePattern(VideoProjectPatterns.restore)
  restore(@Payload() req: ById): Promise<VideoProject> {
    return this.projects.restore(requirePrincipal(req), pathId(req.params.id, NO_SUCH_PROJECT));
  }

  @MessagePattern(VideoProjectPatterns.restoreRevision)
  restoreRevision(@Payload() req: ById): Promise<VideoProject> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_PROJECT);
    return this.projects.restoreRevision(principal, id, validateInput(RestoreVideoRevisionRequest, req.body, 'body'));
  }

  @MessagePattern(VideoProjectPatterns.listRevisions)
  listRevisions(@Payload() req: ById): Promise<VideoRevisionList> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_PROJECT);
    return this.projects.listRevisions(principal, id, validateInput(ListVideoRevisionsQuery, req.query, 'query'));
  }

  @MessagePattern(VideoProjectPatterns.getRevision)
  getRevision(@Payload() req: ById): Promise<VideoProjectRevision> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_PROJECT);
    return this.projects.getRevision(principal, id, revisionOf(req.params.revision));
  }
}
