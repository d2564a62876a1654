import { Controller } from '@nestjs/common';
import { type GrowthListResult, GrowthOperations, type InputOf, type SyncJobAccepted } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { GrowthService } from './growth.service.js';

@Controller()
export class GrowthHandler {
  constructor(private readonly growth: GrowthService) {}

  @Handles(GrowthOperations.list)
  list(@Input() { principal, query }: InputOf<typeof GrowthOperations.list>): Promise<GrowthListResult> {
    return this.growth.list(principal, query);
  }

  @Handles(GrowthOperations.refresh)
  refresh(@Input() { principal, body }: InputOf<typeof GrowthOperations.refresh>): Promise<SyncJobAccepted> {
    return this.growth.refresh(principal, body);
  }

  @Handles(GrowthOperations.follow)
  follow(@Input() { principal, params }: InputOf<typeof GrowthOperations.follow>): Promise<SyncJobAccepted> {
    return this.growth.follow(principal, params.id);
  }

  @Handles(GrowthOperations.dismiss)
  async dismiss(@Input() { principal, params }: InputOf<typeof GrowthOperations.dismiss>): Promise<null> {
    await this.growth.dismiss(principal, params.id);
    return null;
  }
}
