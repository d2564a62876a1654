import { Injectable } from '@nestjs/common';
import { AdminPatterns, ResolvedProviderApp, ResolveProviderAppReply, ResolveProviderAppRequest } from '@social/contracts';
import { RpcClient } from '@social/platform';

/** Short: the admin service answers from memory or one indexed row, and the caller still has a network to talk to. */
const RESOLVE_TIMEOUT_MS = 2_000;

/**
 * Provider apps belong to the admin service: asked on every connect and
 * callback, so a saved, changed or deactivated app applies at once.
 */
@Injectable()
export class ProviderApps {
  constructor(private readonly rpc: RpcClient) {}

  /** The active app for (provider, instance_url), client secret in clear; null when none is in effect. */
  async resolve(provider: string, instanceUrl: string): Promise<ResolvedProviderApp | null> {
    const request: ResolveProviderAppRequest = instanceUrl ? { provider, instance_url: instanceUrl } : { provider };
    const reply = await this.rpc.send<ResolveProviderAppReply>(AdminPatterns.resolveProviderApp, request, {
      timeoutMs: RESOLVE_TIMEOUT_MS,
    });
    return reply.app;
  }
}
