import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AdminPatterns,
  AIPrompt,
  AIPromptList,
  ResolvedPrompt,
  ResolvePromptRequest,
  RpcRequest,
  SavePromptRequest,
} from '@social/contracts';
import { requireAdmin, validateInput } from '@social/platform';
import { AiPromptsService } from './ai-prompts.service.js';

type KeyParams = { key: string };

@Controller()
export class AiPromptsHandler {
  constructor(private readonly prompts: AiPromptsService) {}

  @MessagePattern(AdminPatterns.listPrompts)
  async list(@Payload() req: RpcRequest): Promise<AIPromptList> {
    requireAdmin(req);
    return { prompts: await this.prompts.list() };
  }

  @MessagePattern(AdminPatterns.getPrompt)
  get(@Payload() req: RpcRequest<unknown, unknown, KeyParams>): Promise<AIPrompt> {
    requireAdmin(req);
    return this.prompts.get(req.params.key);
  }

  @MessagePattern(AdminPatterns.savePrompt)
  async save(@Payload() req: RpcRequest<SavePromptRequest, unknown, KeyParams>): Promise<AIPrompt> {
    const principal = requireAdmin(req);
    // An unknown key is 404 whatever the body holds (contract §1: the path comes first).
    await this.prompts.get(req.params.key);
    return this.prompts.save(req.params.key, validateInput(SavePromptRequest, req.body, 'body').value, principal.userId);
  }

  @MessagePattern(AdminPatterns.resetPrompt)
  reset(@Payload() req: RpcRequest<unknown, unknown, KeyParams>): Promise<AIPrompt> {
    requireAdmin(req);
    return this.prompts.reset(req.params.key);
  }

  /** Service to service, never forwarded by the gateway. */
  @MessagePattern(AdminPatterns.resolvePrompt)
  resolve(@Payload() request: ResolvePromptRequest): Promise<ResolvedPrompt> {
    return this.prompts.resolve({ key: String(request?.key ?? ''), platform: request?.platform ? String(request.platform) : undefined });
  }
}
