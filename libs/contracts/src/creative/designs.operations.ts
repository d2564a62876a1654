import { nothing, operation } from '../common/operation.js';
import { MediaItem } from '../media/media.dto.js';
import {
  CreateDesignRequest,
  CreateRevisionRequest,
  ExportDesignRequest,
  ImageEditorDesign,
  ImageEditorDesignList,
  ImageEditorRevision,
  ImageEditorRevisionList,
  ListDesignsQuery,
  ListRevisionsQuery,
  RevisionSummary,
  UpdateDesignRequest,
} from './image-editor.dto.js';

const NO_SUCH_DESIGN = 'No such design.';
const NO_SUCH_REVISION = 'No such revision of this design.';

/** The image editor's designs, their revisions and export (creative service). */
export const DesignOperations = {
  create: operation({ subject: 'creative.designs.create', body: CreateDesignRequest, answer: ImageEditorDesign }),
  list: operation({ subject: 'creative.designs.list', query: ListDesignsQuery, answer: ImageEditorDesignList }),
  get: operation({ subject: 'creative.designs.get', params: { id: NO_SUCH_DESIGN }, answer: ImageEditorDesign }),
  update: operation({
    subject: 'creative.designs.update',
    params: { id: NO_SUCH_DESIGN },
    body: UpdateDesignRequest,
    answer: ImageEditorDesign,
  }),
  delete: operation({ subject: 'creative.designs.delete', params: { id: NO_SUCH_DESIGN }, answer: nothing }),
  /** Renders a page into a media item of the workspace library. */
  export: operation({ subject: 'creative.designs.export', params: { id: NO_SUCH_DESIGN }, body: ExportDesignRequest, answer: MediaItem }),
  createRevision: operation({
    subject: 'creative.design-revisions.create',
    params: { id: NO_SUCH_DESIGN },
    body: CreateRevisionRequest,
    answer: RevisionSummary,
  }),
  listRevisions: operation({
    subject: 'creative.design-revisions.list',
    params: { id: NO_SUCH_DESIGN },
    query: ListRevisionsQuery,
    answer: ImageEditorRevisionList,
  }),
  getRevision: operation({
    subject: 'creative.design-revisions.get',
    params: { id: NO_SUCH_DESIGN, revision_id: NO_SUCH_REVISION },
    answer: ImageEditorRevision,
  }),
  restoreRevision: operation({
    subject: 'creative.design-revisions.restore',
    params: { id: NO_SUCH_DESIGN, revision_id: NO_SUCH_REVISION },
    answer: ImageEditorDesign,
  }),
};
