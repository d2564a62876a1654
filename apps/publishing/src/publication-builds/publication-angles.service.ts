import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import {
  AdminPatterns,
  PlanPublicationAnglesRequest,
  Principal,
  PublicationAngles,
  ResolvedPrompt,
  ResolvePromptRequest,
} from '@social/contracts';
import { AccessControl, Problem, RateLimiter, RpcClient, SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { AiClient, aiProblems, ChatMessage } from '../ai/ai-client.js';
import type { PublishingConfig } from '../config.js';
import { loadAngleBrief } from './angle-brief.js';
import { parseAngles } from './angle-output.js';

export const ANGLES_PROMPT_KEY = 'publication_builds.angles';
/** A model answer that is unusable is asked for once more: models are not deterministic, and one bad answer is common. */
const ATTEMPTS = 2;
/** The admin service answers from one indexed row; longer means it is in trouble. */
const PROMPT_TIMEOUT_MS = 2_000;

/**
 * E16: creative angles for an idea, from the AI provider the instance
 * settings configure, with the admin-overridable `publication_builds.angles`
 * prompt. The model's answer is checked before anyone sees it.
 */
@Injectable()
export class PublicationAnglesService implements OnModuleInit, OnApplicationShutdown {
  private readonly limiter: RateLimiter;
  private pruneTimer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly ai: AiClient,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: PublishingConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.limiter = new RateLimiter(dataSource);
  }

  /** Old rate-limit windows are dead weight; any replica may sweep them. */
  onModuleInit() {
    this.pruneTimer = setInterval(() => void this.limiter.prune().catch(() => undefined), 3_600_000).unref();
  }

  onApplicationShutdown() {
    clearInterval(this.pruneTimer);
  }

  /** Order: access (403), references (422), configuration (503), rate limit (429); a request counts once it passed those checks. */
  async plan(principal: Principal, input: PlanPublicationAnglesRequest): Promise<PublicationAngles> {
    // One budget from the start for everything we wait on (lookups, prompt,
    // every attempt), so our answer or 504 beats the gateway's timeout.
    const deadline = Date.now() + this.config.AI_TIMEOUT_MS;
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const brief = await loadAngleBrief(this.dataSource.manager, workspace.workspace_id, input);
    const provider = this.ai.provider();
    if (deadline - Date.now() <= 0) throw aiProblems.timeout();
    await this.limiter.hit({ key: `angles:user:${principal.userId}`, limit: this.config.RATE_LIMIT_ANGLES_PER_MINUTE, windowSeconds: 60 });
    const prompt = await this.promptWithin(deadline);
    const messages: ChatMessage[] = [
      { role: 'system', content: prompt.value },
      { role: 'user', content: JSON.stringify(brief) },
    ];
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const content = await this.ai.completeJson(provider, messages, deadline);
      const parsed = content === null ? { error: 'no text content' } : parseAngles(content);
      if ('angles' in parsed) return { angles: parsed.angles.map((angle) => ({ id: uuidv7(), ...angle })) };
      this.logger.warn({ attempt, reason: parsed.error, prompt_version: prompt.version }, 'AI model answered unusable angles');
    }
    throw aiProblems.invalidOutput();
  }

  /** The effective prompt, asked of admin within what is left of the budget; running out of it is our 504 ai_timeout. */
  private async promptWithin(deadline: number): Promise<ResolvedPrompt> {
    const left = deadline - Date.now();
    if (left <= 0) throw aiProblems.timeout();
    try {
      return await this.rpc.send<ResolvedPrompt>(AdminPatterns.resolvePrompt, { key: ANGLES_PROMPT_KEY } satisfies ResolvePromptRequest, {
        timeoutMs: Math.min(PROMPT_TIMEOUT_MS, left),
      });
    } catch (error) {
      if (left < PROMPT_TIMEOUT_MS && error instanceof Problem && error.status === 504) throw aiProblems.timeout();
      throw error;
    }
  }
}
