import { Injectable } from '@nestjs/common';
import type { SocialPlatform } from '@social/contracts';
import { SandboxProvider } from './sandbox/sandbox.provider.js';
import type { SocialProvider } from './social-provider.js';

/** The one place adapters are listed: the rest of the service asks it by platform. */
@Injectable()
export class ProviderRegistry {
  private readonly providers = new Map<string, SocialProvider>();

  constructor() {
    for (const provider of [new SandboxProvider()] satisfies SocialProvider[]) this.providers.set(provider.platform, provider);
  }

  /** The adapter of a platform, or undefined when this build has none for it. */
  get(platform: SocialPlatform | string): SocialProvider | undefined {
    return this.providers.get(platform);
  }

  platforms(): string[] {
    return [...this.providers.keys()];
  }
}
