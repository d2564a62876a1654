import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ListProviderAccountsInput,
  ListPublishedRenditionsInput,
  ProviderAccountInput,
  ProviderAccountMetrics,
  ProviderAccountPage,
  ProviderCallResult,
  ProviderFollowInput,
  ProviderFollowOutcome,
  ProviderFollowRecommendation,
  ProviderInsightsPatterns,
  ProviderPostMetrics,
  ProviderPostMetricsInput,
  ProviderRecommendationsInput,
  PublishedRenditionPage,
} from '@social/contracts';
import { validateInput } from '@social/platform';
import { ProviderInsightsService } from './provider-insights.service.js';

/**
 * Issue 15: what the insights service asks of publishing. Service to service
 * only (the gateway forwards none of these, no principal): the payload is the
 * request itself, validated here (422 naming `body.<member>`).
 */
@Controller()
export class ProviderInsightsHandler {
  constructor(private readonly insights: ProviderInsightsService) {}

  @MessagePattern(ProviderInsightsPatterns.listAccounts)
  listAccounts(@Payload() request: unknown): Promise<ProviderAccountPage> {
    return this.insights.listAccounts(validateInput(ListProviderAccountsInput, request, 'body'));
  }

  @MessagePattern(ProviderInsightsPatterns.listPublishedRenditions)
  listPublishedRenditions(@Payload() request: unknown): Promise<PublishedRenditionPage> {
    return this.insights.listPublishedRenditions(validateInput(ListPublishedRenditionsInput, request, 'body'));
  }

  @MessagePattern(ProviderInsightsPatterns.accountMetrics)
  accountMetrics(@Payload() request: unknown): Promise<ProviderCallResult<ProviderAccountMetrics>> {
    return this.insights.accountMetrics(validateInput(ProviderAccountInput, request, 'body'));
  }

  @MessagePattern(ProviderInsightsPatterns.postMetrics)
  postMetrics(@Payload() request: unknown): Promise<ProviderCallResult<ProviderPostMetrics[]>> {
    return this.insights.postMetrics(validateInput(ProviderPostMetricsInput, request, 'body'));
  }

  @MessagePattern(ProviderInsightsPatterns.recommendations)
  recommendations(@Payload() request: unknown): Promise<ProviderCallResult<ProviderFollowRecommendation[]>> {
    return this.insights.recommendations(validateInput(ProviderRecommendationsInput, request, 'body'));
  }

  @MessagePattern(ProviderInsightsPatterns.follow)
  follow(@Payload() request: unknown): Promise<ProviderCallResult<ProviderFollowOutcome>> {
    return this.insights.follow(validateInput(ProviderFollowInput, request, 'body'));
  }
}
