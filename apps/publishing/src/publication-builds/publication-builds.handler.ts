import { Controller } from '@nestjs/common';
import { type InputOf, PublicationBuildOperations, type PublicationAngles } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { PublicationAnglesService } from './publication-angles.service.js';

@Controller()
export class PublicationBuildsHandler {
  constructor(private readonly angles: PublicationAnglesService) {}

  @Handles(PublicationBuildOperations.planAngles)
  planAngles(@Input() { principal, body }: InputOf<typeof PublicationBuildOperations.planAngles>): Promise<PublicationAngles> {
    return this.angles.plan(principal, body);
  }
}
