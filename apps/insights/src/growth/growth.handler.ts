import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { GrowthListResult, GrowthQuery, InsightsPatterns, RefreshGrowthRequest, RpcRequest, SyncJobAccepted } from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { GrowthService } from './growth.service.js';

type ById = RpcRequest<unknown, unknown, { id: string }>;
const NO_SUCH_ITEM = 'No such growth recommendation.';

@Controller()
export class GrowthHandler {
  constructor(private readonly growth: GrowthService) {}

  @MessagePattern(InsightsPatterns.listGrowth)
  list(@Payload() req: RpcRequest): Promise<GrowthListResult> {
    return this.growth.list(requirePrincipal(req), validateInput(GrowthQuery, req.query, 'query'));
  }

  @MessagePattern(InsightsPatterns.refreshGrowth)
  refresh(@Payload() req: RpcRequest): Promise<SyncJobAccepted> {
    return this.growth.refresh(requirePrincipal(req), validateInput(RefreshGrowthRequest, req.body, 'body'));
  }

  @MessagePattern(InsightsPatterns.follow)
  follow(@Payload() req: ById): Promise<SyncJobAccepted> {
    return this.growth.follow(requirePrincipal(req), pathId(req.params.id, NO_SUCH_ITEM));
  }

  @MessagePattern(InsightsPatterns.dismiss)
  async dismiss(@Payload() req: ById): Promise<null> {
    await this.growth.dismiss(requirePrincipal(req), pathId(req.params.id, NO_SUCH_ITEM));
    return null;
  }
}
