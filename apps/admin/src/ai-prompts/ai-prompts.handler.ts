import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AdminPatterns,
  AiPromptOperations,
  type AIPrompt,
  type AIPromptList,
  type InputOf,
  type ResolvedPrompt,
  type ResolvePromptRequest,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { AiPromptsService } from './ai-prompts.service.js';

@Controller()
export class AiPromptsHandler {
  constructor(private readonly prompts: AiPromptsService) {}

  @Handles(AiPromptOperations.list)
  async list(@Input() _checkedCaller: InputOf<typeof AiPromptOperations.list>): Promise<AIPromptList> {
    return { prompts: await this.prompts.list() };
  }

  @Handles(AiPromptOperations.get)
  get(@Input() { params }: InputOf<typeof AiPromptOperations.get>): Promise<AIPrompt> {
    return this.prompts.get(params.key);
  }

  @Handles(AiPromptOperations.save)
  save(@Input() { principal, params, body }: InputOf<typeof AiPromptOperations.save>): Promise<AIPrompt> {
    return this.prompts.save(params.key, body.value, principal.userId);
  }

  @Handles(AiPromptOperations.reset)
  reset(@Input() { params }: InputOf<typeof AiPromptOperations.reset>): Promise<AIPrompt> {
    return this.prompts.reset(params.key);
  }

  /** Service to service, never forwarded by the gateway. */
  @MessagePattern(AdminPatterns.resolvePrompt)
  resolve(@Payload() request: ResolvePromptRequest): Promise<ResolvedPrompt> {
    return this.prompts.resolve({ key: String(request?.key ?? ''), platform: request?.platform ? String(request.platform) : undefined });
  }
}
