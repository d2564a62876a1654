import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AnalyticsOverview,
  AnalyticsQuery,
  InsightsPatterns,
  RefreshAnalyticsRequest,
  RpcRequest,
  SyncJobAccepted,
} from '@social/contracts';
import { requirePrincipal, validateInput } from '@social/platform';
import { AnalyticsService } from './analytics.service.js';

@Controller()
export class AnalyticsHandler {
  constructor(private readonly analytics: AnalyticsService) {}

  @MessagePattern(InsightsPatterns.overview)
  overview(@Payload() req: RpcRequest): Promise<AnalyticsOverview> {
    return this.analytics.overview(requirePrincipal(req), validateInput(AnalyticsQuery, req.query, 'query'));
  }

  @MessagePattern(InsightsPatterns.refreshAnalytics)
  refresh(@Payload() req: RpcRequest): Promise<SyncJobAccepted> {
    return this.analytics.refresh(requirePrincipal(req), validateInput(RefreshAnalyticsRequest, req.body, 'body'));
  }
}
