import { nothing, operation } from '../common/operation.js';
import { CreateProjectAssetRequest, ProjectAsset, ProjectAssetList } from './project-assets.dto.js';
import { NO_SUCH_VIDEO_PROJECT } from './video-projects.operations.js';

const NO_SUCH_ASSET = 'No such project asset.';

/** A video project's assets (creative service); their bytes arrive through media's upload sessions. */
export const ProjectAssetOperations = {
  create: operation({
    subject: 'creative.project-assets.create',
    params: { id: NO_SUCH_VIDEO_PROJECT },
    body: CreateProjectAssetRequest,
    answer: ProjectAsset,
  }),
  list: operation({ subject: 'creative.project-assets.list', params: { id: NO_SUCH_VIDEO_PROJECT }, answer: ProjectAssetList }),
  get: operation({
    subject: 'creative.project-assets.get',
    params: { id: NO_SUCH_VIDEO_PROJECT, asset_id: NO_SUCH_ASSET },
    answer: ProjectAsset,
  }),
  delete: operation({
    subject: 'creative.project-assets.delete',
    params: { id: NO_SUCH_VIDEO_PROJECT, asset_id: NO_SUCH_ASSET },
    answer: nothing,
  }),
};
