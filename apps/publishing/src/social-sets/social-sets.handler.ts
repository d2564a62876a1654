import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateSocialSetRequest,
  ListSocialSetsQuery,
  PublishingPatterns,
  ReplaceSocialSetRequest,
  RpcRequest,
  SocialSet,
  SocialSetList,
} from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { SocialSetsService } from './social-sets.service.js';

type ById = RpcRequest<unknown, unknown, { id: string }>;

@Controller()
export class SocialSetsHandler {
  constructor(private readonly sets: SocialSetsService) {}

  @MessagePattern(PublishingPatterns.listSocialSets)
  list(@Payload() req: RpcRequest): Promise<SocialSetList> {
    const query = validateInput(ListSocialSetsQuery, req.query, 'query');
    return this.sets.list(requirePrincipal(req), query.workspace_id);
  }

  @MessagePattern(PublishingPatterns.getSocialSet)
  get(@Payload() req: ById): Promise<SocialSet> {
    return this.sets.get(requirePrincipal(req), pathId(req.params.id));
  }

  @MessagePattern(PublishingPatterns.createSocialSet)
  create(@Payload() req: RpcRequest): Promise<SocialSet> {
    return this.sets.create(requirePrincipal(req), validateInput(CreateSocialSetRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.replaceSocialSet)
  replace(@Payload() req: ById): Promise<SocialSet> {
    const principal = requirePrincipal(req);
    return this.sets.replace(principal, pathId(req.params.id), validateInput(ReplaceSocialSetRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.deleteSocialSet)
  async delete(@Payload() req: ById): Promise<null> {
    await this.sets.delete(requirePrincipal(req), pathId(req.params.id));
    return null;
  }
}
