import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GrowthListResult, GrowthOperations, GrowthQuery, RefreshGrowthRequest, SyncJobAccepted } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Growth')
@ApiBearerAuth()
@Controller('growth')
export class GrowthController {
  constructor(private readonly forward: Forwarder) {}

  @Get()
  @ApiOperation({
    summary: 'Follow recommendations for one connected account, from stored data',
    description:
      'Reads what the last refresh stored (no network call): the current recommendations best first (dismissed ones left out), ' +
      'every item whose follow is pending or done (`follow_updates`) and the sync state (`idle` until a refresh is asked for). ' +
      'An account that is not a connected account of the workspace is 404.',
  })
  @Returns(GrowthListResult)
  @Refuses(403, 404, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(GrowthQuery)) query: GrowthQuery): Promise<GrowthListResult> {
    return this.forward.send(GrowthOperations.list, req, { query: { ...query } });
  }

  @Post('refresh')
  @ApiOperation({
    summary: "Queue a refresh of the account's recommendations (editors)",
    description:
      'A sync job asks the network (through publishing, which holds the grant) and stores the answer; one queued refresh per account: ' +
      "a second request answers the pending job. The sync state records each outcome (`rate_limited` retries at the network's reset time).",
  })
  @Returns(SyncJobAccepted, 202)
  @Refuses(400, 403, 404, 413, 415, 422)
  refresh(@Req() req: FastifyRequest, @Body(new ValidBody(RefreshGrowthRequest)) body: RefreshGrowthRequest): Promise<SyncJobAccepted> {
    return this.forward.send(GrowthOperations.refresh, req, { body });
  }

  @Post(':id/follow')
  @ApiOperation({
    summary: 'Follow the recommended account (editors)',
    description:
      'The item turns `pending`; a job follows through the network and ends `following`, `requested` (the account approves followers) ' +
      'or `failed` ' +
      '(with `follow_error_code`). 409 `already_following` when it is following or requested.',
  })
  @Returns(SyncJobAccepted, 202)
  @Refuses(403, 404, 409, 'already_following')
  follow(@Req() req: FastifyRequest, @Param('id') id: string): Promise<SyncJobAccepted> {
    return this.forward.send(GrowthOperations.follow, req, { params: { id } });
  }

  @Post(':id/dismiss')
  @ApiOperation({ summary: 'Dismiss a recommendation (editors); it stays out of the list, even when a later refresh recommends it again' })
  @ReturnsNothing()
  @Refuses(403, 404)
  async dismiss(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(GrowthOperations.dismiss, req, { params: { id } });
  }
}
