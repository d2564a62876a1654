import { Inject, Injectable, Optional } from '@nestjs/common';
import type { SocialPlatform } from '@social/contracts';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { PublishingConfig } from '../config.js';
import { BlueskyProvider } from './bluesky/bluesky.provider.js';
import { DiscordProvider } from './discord/discord.provider.js';
import { FacebookNetwork } from './facebook/facebook.network.js';
import { FacebookProvider } from './facebook/facebook.provider.js';
import { InstagramNetwork } from './instagram/instagram.network.js';
import { InstagramProvider } from './instagram/instagram.provider.js';
import { LinkedInNetwork } from './linkedin/linkedin.network.js';
import { LinkedInProvider } from './linkedin/linkedin.provider.js';
import { MastodonNetwork } from './mastodon/mastodon.network.js';
import { MastodonProvider } from './mastodon/mastodon.provider.js';
import { ProviderHttp } from './provider-http.js';
import { networkFetches } from './public-destination.js';
import { SandboxProvider } from './sandbox/sandbox.provider.js';
import type { SocialProvider } from './social-provider.js';
import { TelegramProvider } from './telegram/telegram.provider.js';
import { ThreadsNetwork } from './threads/threads.network.js';
import { ThreadsProvider } from './threads/threads.provider.js';
import { TikTokNetwork } from './tiktok/tiktok.network.js';
import { TikTokProvider } from './tiktok/tiktok.provider.js';
import { XNetwork } from './x/x.network.js';
import { XProvider } from './x/x.provider.js';
import { YouTubeNetwork } from './youtube/youtube.network.js';
import { YouTubeProvider } from './youtube/youtube.provider.js';

/** Networks without an adapter yet, and why. */
const NOT_YET_CONNECTABLE: Readonly<Record<string, string>> = {};

/** The one place adapters are listed: the rest of the service asks it by platform. */
@Injectable()
export class ProviderRegistry {
  private readonly providers = new Map<string, SocialProvider>();

  constructor(
    @Inject(SERVICE_CONFIG)
    config: Pick<PublishingConfig, 'PROVIDER_API_ORIGINS' | 'PROVIDER_TIMEOUT_MS' | 'PROVIDER_ALLOW_PRIVATE_ADDRESSES'>,
    @Inject(SERVICE_LOGGER) logger?: Logger,
    @Optional() dataSource?: DataSource,
  ) {
    // Every call to a network connects only to public addresses, checked on the address connected (see public-destination.ts).
    const { fetch: fetchFn, streamingFetch: uploadFetchFn } = networkFetches(
      Object.values(config.PROVIDER_API_ORIGINS),
      config.PROVIDER_ALLOW_PRIVATE_ADDRESSES === 'true',
    );
    const http = new ProviderHttp(config.PROVIDER_API_ORIGINS, logger, fetchFn, uploadFetchFn);
    const providers: SocialProvider[] = [
      new SandboxProvider(dataSource),
      new MastodonProvider(new MastodonNetwork(), http, config.PROVIDER_TIMEOUT_MS),
      new XProvider(new XNetwork(), http, config.PROVIDER_TIMEOUT_MS),
      new YouTubeProvider(new YouTubeNetwork(), http, config.PROVIDER_TIMEOUT_MS),
      new BlueskyProvider(config.PROVIDER_API_ORIGINS, http, config.PROVIDER_TIMEOUT_MS, logger, fetchFn),
      new LinkedInProvider(new LinkedInNetwork(), http, config.PROVIDER_TIMEOUT_MS),
      new ThreadsProvider(new ThreadsNetwork(), http, config.PROVIDER_TIMEOUT_MS),
      new FacebookProvider(new FacebookNetwork(), http, config.PROVIDER_TIMEOUT_MS),
      new InstagramProvider(new InstagramNetwork(), http, config.PROVIDER_TIMEOUT_MS),
      new DiscordProvider(config.PROVIDER_API_ORIGINS, config.PROVIDER_TIMEOUT_MS, fetchFn, uploadFetchFn, logger),
      new TelegramProvider(config.PROVIDER_API_ORIGINS, config.PROVIDER_TIMEOUT_MS, fetchFn, uploadFetchFn, logger),
      new TikTokProvider(new TikTokNetwork(), http, config.PROVIDER_TIMEOUT_MS),
    ];
    for (const provider of providers) this.providers.set(provider.platform, provider);
  }

  /** The adapter of a platform, or undefined when this build has none for it. */
  get(platform: SocialPlatform | string): SocialProvider | undefined {
    return this.providers.get(platform);
  }

  /** Why a platform without an adapter cannot be connected, in words a client can show. */
  unavailableReason(platform: string): string {
    return NOT_YET_CONNECTABLE[platform] ?? `connecting ${platform} accounts is not available on this instance`;
  }

  platforms(): string[] {
    return [...this.providers.keys()];
  }
}
