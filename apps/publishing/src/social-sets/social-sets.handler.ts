import { Controller } from '@nestjs/common';
import { type InputOf, SocialSetOperations, type SocialSet, type SocialSetList } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { SocialSetsService } from './social-sets.service.js';

@Controller()
export class SocialSetsHandler {
  constructor(private readonly sets: SocialSetsService) {}

  @Handles(SocialSetOperations.list)
  list(@Input() { principal, query }: InputOf<typeof SocialSetOperations.list>): Promise<SocialSetList> {
    return this.sets.list(principal, query.workspace_id);
  }

  @Handles(SocialSetOperations.get)
  get(@Input() { principal, params }: InputOf<typeof SocialSetOperations.get>): Promise<SocialSet> {
    return this.sets.get(principal, params.id);
  }

  @Handles(SocialSetOperations.create)
  create(@Input() { principal, body }: InputOf<typeof SocialSetOperations.create>): Promise<SocialSet> {
    return this.sets.create(principal, body);
  }

  @Handles(SocialSetOperations.replace)
  replace(@Input() { principal, params, body }: InputOf<typeof SocialSetOperations.replace>): Promise<SocialSet> {
    return this.sets.replace(principal, params.id, body);
  }

  @Handles(SocialSetOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof SocialSetOperations.delete>): Promise<null> {
    await this.sets.delete(principal, params.id);
    return null;
  }
}
