import { Body, Controller, Get, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AnalyticsOperations,
  AnalyticsOverview,
  AnalyticsQuery,
  Measurement,
  MetricMetadata,
  RefreshAnalyticsRequest,
  SyncJobAccepted,
} from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Analytics')
@ApiBearerAuth()
@ApiExtraModels(MetricMetadata, Measurement)
@Controller('analytics')
export class AnalyticsController {
  constructor(private readonly forward: Forwarder) {}

  @Get()
  @ApiOperation({
    summary: 'Stored whole-account analytics',
    description:
      'Reads what sync jobs stored (no network call). The window is the last `days` UTC days including today. ' +
      'Content is the renditions published through the platform in the window (`native`; `external` content is not collected, so that ' +
      'source is empty); ' +
      '`metrics` are the latest counters read (lifetime totals of each post), `engagement` = likes + comments + reposts. ' +
      'Account growth (followers, `follower_series`, `trends.followers`) is account-wide whatever `source`: one snapshot per account ' +
      "per day, `follower_delta` the window's last minus its first. " +
      'Summary deltas of content metrics compare with the content published in the previous window of the same length. impressions and ' +
      'reach are not reported by any network yet (0, measured 0). ' +
      '`cursor` takes either next cursor: `content_next_cursor` pages content (publications stay on their first page), ' +
      '`publication_next_cursor` pages publications; ' +
      'both are bound to workspace_id, days, account_id, source and sort (422 otherwise). A page holds at most `limit` items, fewer ' +
      'when the answer would pass 768 KB (follow its cursor). An account_id that is not a connected account of the workspace is 404.',
  })
  @Returns(AnalyticsOverview)
  @Refuses(403, 404, 422)
  overview(@Req() req: FastifyRequest, @Query(new ValidQuery(AnalyticsQuery)) query: AnalyticsQuery): Promise<AnalyticsOverview> {
    return this.forward.send(AnalyticsOperations.overview, req, { query: { ...query } });
  }

  @Post('refresh')
  @ApiOperation({
    summary: 'Queue a metrics sync (editors)',
    description:
      'One job per account (deduplicated while one is queued): the account counters (a daily snapshot), renditions published while ' +
      'insights was not listening, ' +
      'and the counters of every rendition of the account. Without account_id every connected account of the workspace; `job_id` is ' +
      "then the first account's job " +
      '(a job recorded as `done` at once when the workspace has none). Jobs also run daily for every connected account, and for each ' +
      'published rendition at once, +1 h, +24 h and +7 d.',
  })
  @Returns(SyncJobAccepted, 202)
  @Refuses(400, 403, 404, 413, 415, 422)
  refresh(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(RefreshAnalyticsRequest)) body: RefreshAnalyticsRequest,
  ): Promise<SyncJobAccepted> {
    return this.forward.send(AnalyticsOperations.refresh, req, { body });
  }
}
