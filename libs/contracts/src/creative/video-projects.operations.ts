import { checkedByService, operation } from '../common/operation.js';
import {
  ListVideoProjectsQuery,
  ListVideoRevisionsQuery,
  RestoreVideoRevisionRequest,
  VideoProject,
  VideoProjectList,
  VideoProjectRevision,
  VideoProjectSummary,
  VideoRevisionList,
} from './video-projects.dto.js';

/** The 404 detail of a project id that names no project (the creative service answers it too). */
export const NO_SUCH_VIDEO_PROJECT = 'No such video project.';

/**
 * Video projects and their revisions (creative service).
 *
 * `create` and `replace` carry the document as the JSON text the gateway made (DOCUMENT_JSON_MEMBER): their body is
 * not a class `@Input()` could check (the text is judged for shape and size only, not walked), so it is declared
 * `unknown` and the handler checks it. Their answer is the summary; the gateway adds the document it sent back.
 */
export const VideoProjectOperations = {
  create: operation<VideoProjectSummary, 'member', never, null, unknown>({
    subject: 'creative.video-projects.create',
    answer: VideoProjectSummary,
  }),
  list: operation({ subject: 'creative.video-projects.list', query: ListVideoProjectsQuery, answer: VideoProjectList }),
  get: operation({ subject: 'creative.video-projects.get', params: { id: NO_SUCH_VIDEO_PROJECT }, answer: VideoProject }),
  replace: operation<VideoProjectSummary, 'member', 'id', null, unknown>({
    subject: 'creative.video-projects.replace',
    params: { id: NO_SUCH_VIDEO_PROJECT },
    answer: VideoProjectSummary,
  }),
  /** Moves the project to the trash and answers it. */
  delete: operation({ subject: 'creative.video-projects.delete', params: { id: NO_SUCH_VIDEO_PROJECT }, answer: VideoProject }),
  restore: operation({ subject: 'creative.video-projects.restore', params: { id: NO_SUCH_VIDEO_PROJECT }, answer: VideoProject }),
  listRevisions: operation({
    subject: 'creative.video-projects.list-revisions',
    params: { id: NO_SUCH_VIDEO_PROJECT },
    query: ListVideoRevisionsQuery,
    answer: VideoRevisionList,
  }),
  /** `params.revision` is a number, not a UUID: the service parses it (404 unless an integer, 422 below 1). */
  getRevision: operation({
    subject: 'creative.video-projects.get-revision',
    params: { id: NO_SUCH_VIDEO_PROJECT, revision: checkedByService },
    answer: VideoProjectRevision,
  }),
  restoreRevision: operation({
    subject: 'creative.video-projects.restore-revision',
    params: { id: NO_SUCH_VIDEO_PROJECT },
    body: RestoreVideoRevisionRequest,
    answer: VideoProject,
  }),
};
