import { Body, Controller, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlanPublicationAnglesRequest, PublicationAngles, PublicationBuildOperations } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Publication builds')
@ApiBearerAuth()
@Controller('publication-builds')
export class PublicationBuildsController {
  constructor(private readonly forward: Forwarder) {}

  @Post('angles')
  @ApiOperation({
    summary: '3 to 5 creative angles for an idea, from the configured AI model (editors)',
    description:
      'account_ids (at most 50, no repeats), social_set_id and voice_profile_id must belong to the workspace (422 at their location). ' +
      'The model is asked with the admin-overridable prompt publication_builds.angles; its answer is checked and asked for once more ' +
      'when unusable (502 ai_invalid_output the second time). 503 ai_not_configured without an AI base URL and model; ' +
      '502 ai_provider_error when the provider fails or is unreachable; 504 ai_timeout after AI_TIMEOUT_MS (8 s). ' +
      'At most 30 requests per user per minute (429, Retry-After).',
  })
  @Returns(PublicationAngles)
  @Refuses(400, 403, 413, 415, 422, 429, 502, 503, 504, 'ai_invalid_output', 'ai_provider_error', 'ai_not_configured', 'ai_timeout')
  plan(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(PlanPublicationAnglesRequest)) body: PlanPublicationAnglesRequest,
  ): Promise<PublicationAngles> {
    return this.forward.send(PublicationBuildOperations.planAngles, req, { body });
  }
}
