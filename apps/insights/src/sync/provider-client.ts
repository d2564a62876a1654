import { Injectable } from '@nestjs/common';
import {
  ProviderInsightsPatterns,
  type ListProviderAccountsRequest,
  type ListPublishedRenditionsRequest,
  type ProviderAccountMetrics,
  type ProviderAccountPage,
  type ProviderAccountRequest,
  type ProviderCallResult,
  type ProviderFollowOutcome,
  type ProviderFollowRecommendation,
  type ProviderFollowRequest,
  type ProviderPostMetrics,
  type ProviderPostMetricsRequest,
  type ProviderRecommendationsRequest,
  type PublishedRenditionPage,
} from '@social/contracts';
import { RpcClient } from '@social/platform';

/** A network call may take the provider's whole budget (PROVIDER_TIMEOUT_MS, at most 9 s) plus the hop. */
const PROVIDER_CALL_TIMEOUT_MS = 12_000;

/**
 * Insights' only way to the networks (issue 15): publishing holds the adapters
 * and the accounts' grants, so insights asks it over NATS and gets plain data
 * (ProviderInsightsPatterns); tokens never leave publishing.
 */
@Injectable()
export class ProviderClient {
  constructor(private readonly rpc: RpcClient) {}

  listAccounts(request: ListProviderAccountsRequest): Promise<ProviderAccountPage> {
    return this.rpc.send(ProviderInsightsPatterns.listAccounts, request);
  }

  listPublishedRenditions(request: ListPublishedRenditionsRequest): Promise<PublishedRenditionPage> {
    return this.rpc.send(ProviderInsightsPatterns.listPublishedRenditions, request);
  }

  accountMetrics(request: ProviderAccountRequest): Promise<ProviderCallResult<ProviderAccountMetrics>> {
    return this.rpc.send(ProviderInsightsPatterns.accountMetrics, request, { timeoutMs: PROVIDER_CALL_TIMEOUT_MS });
  }

  postMetrics(request: ProviderPostMetricsRequest): Promise<ProviderCallResult<ProviderPostMetrics[]>> {
    return this.rpc.send(ProviderInsightsPatterns.postMetrics, request, { timeoutMs: PROVIDER_CALL_TIMEOUT_MS });
  }

  recommendations(request: ProviderRecommendationsRequest): Promise<ProviderCallResult<ProviderFollowRecommendation[]>> {
    return this.rpc.send(ProviderInsightsPatterns.recommendations, request, { timeoutMs: PROVIDER_CALL_TIMEOUT_MS });
  }

  follow(request: ProviderFollowRequest): Promise<ProviderCallResult<ProviderFollowOutcome>> {
    return this.rpc.send(ProviderInsightsPatterns.follow, request, { timeoutMs: PROVIDER_CALL_TIMEOUT_MS });
  }
}
