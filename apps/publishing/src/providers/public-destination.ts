import { isDestinationNotPublic, PublicDestinations, type Resolve } from '@social/platform';
import { ProviderError } from './provider-error.js';
import type { FetchFunction } from './provider-http.js';
import { streamingFetchThrough } from './streaming-fetch.js';

/** The fetches publishing calls networks with (plain and streamed uploads), both under one destination policy. */
export interface NetworkFetches {
  fetch: FetchFunction;
  streamingFetch: FetchFunction;
}

/**
 * The fetches for networks' servers: only public addresses, judged on the
 * address each connection uses (see PublicDestinations in libs/platform),
 * unless the destination is one an operator configured (an origin of
 * PROVIDER_API_ORIGINS: tests' fakes, egress proxies) or `allowPrivate` is
 * set (PROVIDER_ALLOW_PRIVATE_ADDRESSES, for networks self-hosted inside the
 * same private network). A refusal is a ProviderError `refused`
 * (`destination_not_public`) raised before anything is sent.
 */
export function networkFetches(configuredOrigins: Iterable<string>, allowPrivate: boolean, resolve?: Resolve): NetworkFetches {
  const destinations = new PublicDestinations({ trustedOrigins: configuredOrigins, allowPrivate, resolve });
  return { fetch: refusing(destinations.fetch), streamingFetch: refusing(streamingFetchThrough(destinations)) };
}

/** The plain fetch of networkFetches. */
export function publicOnlyFetch(configuredOrigins: Iterable<string>, allowPrivate: boolean, resolve?: Resolve): FetchFunction {
  return networkFetches(configuredOrigins, allowPrivate, resolve).fetch;
}

/** `fetchFn` with the policy's refusals as the ProviderError adapters and delivery understand. */
function refusing(fetchFn: FetchFunction): FetchFunction {
  return (async (input: Parameters<FetchFunction>[0], init?: Parameters<FetchFunction>[1]) => {
    try {
      return await fetchFn(input, init);
    } catch (error) {
      if (isDestinationNotPublic(error)) {
        throw new ProviderError('refused', 'The server is not on a public address.', 'destination_not_public', { status: 0, sent: false });
      }
      throw error;
    }
  }) as FetchFunction;
}
