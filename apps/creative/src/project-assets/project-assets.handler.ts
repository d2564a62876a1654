import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateProjectAssetRequest,
  ProjectAsset,
  ProjectAssetCheck,
  ProjectAssetCheckRequest,
  ProjectAssetList,
  RpcRequest,
  VideoProjectPatterns,
} from '@social/contracts';
import { isUuid, pathId, problems, requirePrincipal, validateInput } from '@social/platform';
import { NO_SUCH_PROJECT } from '../video-projects/video-project.row.js';
import { ProjectAssetsService } from './project-assets.service.js';

type ByIds = RpcRequest<unknown, unknown, { id: string; asset_id?: string }>;
const NO_SUCH_ASSET = 'No such project asset.';

@Controller()
export class ProjectAssetsHandler {
  constructor(private readonly assets: ProjectAssetsService) {}

  @MessagePattern(VideoProjectPatterns.createAsset)
  create(@Payload() req: ByIds): Promise<ProjectAsset> {
    const principal = requirePrincipal(req);
    const projectId = pathId(req.params.id, NO_SUCH_PROJECT);
    return this.assets.create(principal, projectId, validateInput(CreateProjectAssetRequest, req.body, 'body'));
  }

  @MessagePattern(VideoProjectPatterns.listAssets)
  list(@Payload() req: ByIds): Promise<ProjectAssetList> {
    return this.assets.list(requirePrincipal(req), pathId(req.params.id, NO_SUCH_PROJECT));
  }

  @MessagePattern(VideoProjectPatterns.getAsset)
  get(@Payload() req: ByIds): Promise<ProjectAsset> {
    const principal = requirePrincipal(req);
    return this.assets.get(principal, pathId(req.params.id, NO_SUCH_PROJECT), pathId(req.params.asset_id, NO_SUCH_ASSET));
  }

  @MessagePattern(VideoProjectPatterns.deleteAsset)
  async delete(@Payload() req: ByIds): Promise<null> {
    const principal = requirePrincipal(req);
    await this.assets.delete(principal, pathId(req.params.id, NO_SUCH_PROJECT), pathId(req.params.asset_id, NO_SUCH_ASSET));
    return null;
  }

  /** Service to service (media at E17); the gateway forwards nothing here. */
  @MessagePattern(VideoProjectPatterns.checkAsset)
  check(@Payload() req: ProjectAssetCheckRequest): Promise<ProjectAssetCheck> {
    if (!isUuid(req?.workspace_id) || !isUuid(req?.project_asset_id)) throw problems.notFound(NO_SUCH_ASSET);
    return this.assets.check(req.workspace_id.toLowerCase(), req.project_asset_id.toLowerCase());
  }
}
