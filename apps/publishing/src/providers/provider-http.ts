import { readLimited } from '@social/platform';
import type { Logger } from 'pino';
import { ProviderApiOrigins, redirectOrigin } from './provider-api-origins.js';
import { oauthErrorCode, ProviderError } from './provider-error.js';

/** Networks answer small JSON documents; anything larger is not an answer we asked for. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: URLSearchParams;
  /** Sent as application/json. */
  json?: unknown;
}

export type FetchFunction = typeof fetch;

/**
 * The one way adapters talk to networks: JSON in and out, the configured
 * origin override applied, redirects refused, bounded by the caller's signal,
 * and every failure a ProviderError. Logs method, network, path and status;
 * never headers, query strings or bodies (they carry tokens and codes).
 */
export class ProviderHttp {
  constructor(
    private readonly origins: ProviderApiOrigins,
    private readonly logger?: Logger,
    private readonly fetchFn: FetchFunction = fetch,
  ) {}

  async json(platform: string, request: ProviderRequest, signal: AbortSignal): Promise<unknown> {
    const url = redirectOrigin(this.origins, platform, request.url);
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    let body: string | undefined;
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = request.form.toString();
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const startedAt = Date.now();
    const path = new URL(url).pathname;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(url, { method: request.method, headers, body, signal, redirect: 'manual' });
      const answer = await readLimited(response, MAX_ANSWER_BYTES);
      if (answer === undefined) throw new ProviderError('unavailable', 'The network answered more than we accept.');
      text = answer;
    } catch (error) {
      if (signal.aborted) throw new ProviderError('timeout', `${platform} did not answer in time.`);
      if (error instanceof ProviderError) throw error;
      this.logger?.warn({ platform, method: request.method, path, err: { message: (error as Error).message } }, 'network unreachable');
      throw new ProviderError('unavailable', `${platform} could not be reached.`);
    }
    this.logger?.debug({ platform, method: request.method, path, status: response.status, ms: Date.now() - startedAt }, 'network answered');
    const parsed = parseJson(text);
    if (response.status >= 400 && response.status < 500 && response.status !== 429) {
      throw new ProviderError('refused', `${platform} refused the request (HTTP ${response.status}).`, oauthErrorCode(parsed));
    }
    if (response.status < 200 || response.status >= 300) {
      throw new ProviderError('unavailable', `${platform} answered HTTP ${response.status}.`);
    }
    if (parsed === undefined) throw new ProviderError('unavailable', `${platform} answered something that is not JSON.`);
    return parsed;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
