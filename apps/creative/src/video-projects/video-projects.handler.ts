import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CreateVideoProjectRequest,
  DOCUMENT_JSON_MEMBER,
  type InputOf,
  ReplaceVideoProjectRequest,
  type VideoProject,
  type VideoProjectList,
  VideoProjectOperations,
  type VideoProjectRevision,
  type VideoProjectSummary,
  videoDocumentJsonError,
  type VideoRevisionList,
} from '@social/contracts';
import { Handles, Input, problems, validateInputWithDocument } from '@social/platform';
import { VideoProjectsService } from './video-projects.service.js';

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

  @Handles(VideoProjectOperations.create)
  create(
    @Input() { principal }: InputOf<typeof VideoProjectOperations.create>,
    // A document body (JSON text, not walked): validateInputWithDocument, not @Input(), checks it.
    @Payload('body') body: unknown,
  ): Promise<VideoProjectSummary> {
    const { input, documentJson } = validateDocumentBody(CreateVideoProjectRequest, body);
    return this.projects.create(principal, input, documentJson);
  }

  @Handles(VideoProjectOperations.list)
  list(@Input() { principal, query }: InputOf<typeof VideoProjectOperations.list>): Promise<VideoProjectList> {
    return this.projects.list(principal, query);
  }

  @Handles(VideoProjectOperations.get)
  get(@Input() { principal, params }: InputOf<typeof VideoProjectOperations.get>): Promise<VideoProject> {
    return this.projects.get(principal, params.id);
  }

  @Handles(VideoProjectOperations.replace)
  replace(
    @Input() { principal, params }: InputOf<typeof VideoProjectOperations.replace>,
    // A document body (JSON text, not walked): validateInputWithDocument, not @Input(), checks it.
    @Payload('body') body: unknown,
  ): Promise<VideoProjectSummary> {
    const { input, documentJson } = validateDocumentBody(ReplaceVideoProjectRequest, body);
    return this.projects.replace(principal, params.id, input, documentJson);
  }

  @Handles(VideoProjectOperations.delete)
  trash(@Input() { principal, params }: InputOf<typeof VideoProjectOperations.delete>): Promise<VideoProject> {
    return this.projects.trash(principal, params.id);
  }

  @Handles(VideoProjectOperations.restore)
  restore(@Input() { principal, params }: InputOf<typeof VideoProjectOperations.restore>): Promise<VideoProject> {
    return this.projects.restore(principal, params.id);
  }

  @Handles(VideoProjectOperations.restoreRevision)
  restoreRevision(@Input() { principal, params, body }: InputOf<typeof VideoProjectOperations.restoreRevision>): Promise<VideoProject> {
    return this.projects.restoreRevision(principal, params.id, body);
  }

  @Handles(VideoProjectOperations.listRevisions)
  listRevisions(@Input() { principal, params, query }: InputOf<typeof VideoProjectOperations.listRevisions>): Promise<VideoRevisionList> {
    return this.projects.listRevisions(principal, params.id, query);
  }

  @Handles(VideoProjectOperations.getRevision)
  getRevision(@Input() { principal, params }: InputOf<typeof VideoProjectOperations.getRevision>): Promise<VideoProjectRevision> {
    return this.projects.getRevision(principal, params.id, revisionOf(params.revision));
  }
}
