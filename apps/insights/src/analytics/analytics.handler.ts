import { Controller } from '@nestjs/common';
import { type AnalyticsOverview, AnalyticsOperations, type InputOf, type SyncJobAccepted } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { AnalyticsService } from './analytics.service.js';

@Controller()
export class AnalyticsHandler {
  constructor(private readonly analytics: AnalyticsService) {}

  @Handles(AnalyticsOperations.overview)
  overview(@Input() { principal, query }: InputOf<typeof AnalyticsOperations.overview>): Promise<AnalyticsOverview> {
    return this.analytics.overview(principal, query);
  }

  @Handles(AnalyticsOperations.refresh)
  refresh(@Input() { principal, body }: InputOf<typeof AnalyticsOperations.refresh>): Promise<SyncJobAccepted> {
    return this.analytics.refresh(principal, body);
  }
}
