import { Inject, Injectable } from '@nestjs/common';
import { InstanceSettings, Problem, readLimited, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** The provider as the instance settings configure it right now (they are live: an admin's change applies to the next request). */
export interface AiProvider {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** The AI problems of docs/decisions.md/§4. None carries what the provider said: its body may echo our prompt or key. */
export const aiProblems = {
  notConfigured: () =>
    new Problem(
      503,
      'ai_not_configured',
      'No AI provider is configured on this instance; an administrator sets its base URL and model in the instance settings.',
    ),
  providerError: () =>
    new Problem(502, 'ai_provider_error', 'The AI provider could not be reached or refused the request; try again shortly.', {
      retryAfter: 5,
    }),
  timeout: () => new Problem(504, 'ai_timeout', 'The AI provider did not answer in time; try again shortly.', { retryAfter: 5 }),
  invalidOutput: () =>
    new Problem(502, 'ai_invalid_output', 'The AI model did not produce a usable answer twice in a row; try again or rephrase the idea.'),
};

/** A chat-completions answer larger than this is not one we asked for. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * One small client for an OpenAI-compatible chat-completions endpoint
 * (`POST {base}/chat/completions`, bearer key, JSON mode), on Node's fetch.
 * Transport failures become problems here; judging the model's content is
 * the caller's business.
 */
@Injectable()
export class AiClient {
  constructor(
    private readonly settings: InstanceSettings,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  /** The configured provider, or 503 ai_not_configured when the base URL or the model is empty. */
  provider(): AiProvider {
    const baseUrl = this.settings.string('ai_base_url');
    const model = this.settings.string('ai_model');
    if (baseUrl === '' || model === '') throw aiProblems.notConfigured();
    return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: this.settings.string('ai_api_key'), model };
  }

  /**
   * One completion in JSON mode, answered before `deadline` (epoch ms) or 504.
   * Returns the model's message content, or null when the answer carries no
   * text (a refusal, say): the caller treats that like unusable output.
   */
  async completeJson(provider: AiProvider, messages: ChatMessage[], deadline: number): Promise<string | null> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw aiProblems.timeout();
    const signal = AbortSignal.timeout(remaining);
    let status: number;
    let text: string | undefined;
    try {
      const response = await fetch(`${provider.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: provider.model, messages, response_format: { type: 'json_object' } }),
        signal,
        // A redirect is never followed: it could point our key and prompt at an address inside our network
        // (the configured base URL is the one destination an administrator chose). A 3xx is a provider error.
        redirect: 'manual',
      });
      status = response.status;
      text = await readLimited(response, MAX_ANSWER_BYTES);
    } catch (error) {
      if (signal.aborted) throw aiProblems.timeout();
      const cause = (error as { cause?: { code?: string } }).cause;
      this.logger.warn({ reason: (error as Error).message, code: cause?.code }, 'AI provider unreachable');
      throw aiProblems.providerError();
    }
    if (status < 200 || status > 299) {
      this.logger.warn({ status }, 'AI provider refused the request');
      throw aiProblems.providerError();
    }
    const content = text === undefined ? undefined : messageContent(text);
    if (content === undefined) {
      this.logger.warn({ status, oversized: text === undefined }, 'AI provider answered something that is not a chat completion');
      throw aiProblems.providerError();
    }
    return content;
  }
}

/** `choices[0].message.content` of a chat completion; undefined when the text is not one at all. */
function messageContent(text: string): string | null | undefined {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return undefined;
  }
  const choices = (envelope as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return undefined;
  const content = (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content;
  return typeof content === 'string' ? content : null;
}
