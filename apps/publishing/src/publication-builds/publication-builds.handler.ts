import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PlanPublicationAnglesRequest, PublicationAngles, PublishingPatterns, RpcRequest } from '@social/contracts';
import { requirePrincipal, validateInput } from '@social/platform';
import { PublicationAnglesService } from './publication-angles.service.js';

@Controller()
export class PublicationBuildsHandler {
  constructor(private readonly angles: PublicationAnglesService) {}

  @MessagePattern(PublishingPatterns.planAngles)
  planAngles(@Payload() req: RpcRequest): Promise<PublicationAngles> {
    return this.angles.plan(requirePrincipal(req), validateInput(PlanPublicationAnglesRequest, req.body, 'body'));
  }
}
