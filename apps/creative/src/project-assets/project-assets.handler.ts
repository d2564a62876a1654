import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type InputOf,
  type ProjectAsset,
  type ProjectAssetCheck,
  type ProjectAssetCheckRequest,
  type ProjectAssetList,
  ProjectAssetOperations,
  VideoProjectPatterns,
} from '@social/contracts';
import { Handles, Input, isUuid, problems } from '@social/platform';
import { ProjectAssetsService } from './project-assets.service.js';

const NO_SUCH_ASSET = 'No such project asset.';

@Controller()
export class ProjectAssetsHandler {
  constructor(private readonly assets: ProjectAssetsService) {}

  @Handles(ProjectAssetOperations.create)
  create(@Input() { principal, params, body }: InputOf<typeof ProjectAssetOperations.create>): Promise<ProjectAsset> {
    return this.assets.create(principal, params.id, body);
  }

  @Handles(ProjectAssetOperations.list)
  list(@Input() { principal, params }: InputOf<typeof ProjectAssetOperations.list>): Promise<ProjectAssetList> {
    return this.assets.list(principal, params.id);
  }

  @Handles(ProjectAssetOperations.get)
  get(@Input() { principal, params }: InputOf<typeof ProjectAssetOperations.get>): Promise<ProjectAsset> {
    return this.assets.get(principal, params.id, params.asset_id);
  }

  @Handles(ProjectAssetOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof ProjectAssetOperations.delete>): Promise<null> {
    await this.assets.delete(principal, params.id, params.asset_id);
    return null;
  }

  /** Service to service (media, when an upload session names an asset); the gateway forwards nothing here. */
  @MessagePattern(VideoProjectPatterns.checkAsset)
  check(@Payload() req: ProjectAssetCheckRequest): Promise<ProjectAssetCheck> {
    if (!isUuid(req?.workspace_id) || !isUuid(req?.project_asset_id)) throw problems.notFound(NO_SUCH_ASSET);
    return this.assets.check(req.workspace_id.toLowerCase(), req.project_asset_id.toLowerCase());
  }
}
