import { Body, Controller, Delete, Get, Param, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AiPromptOperations, AIPrompt, AIPromptList, promptDefinition, SavePromptRequest } from '@social/contracts';
import { problems } from '@social/platform';
import type { FastifyRequest } from 'fastify';
import { RequiresInstanceAdmin } from '../auth/instance-admin.decorator.js';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Administration')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@RequiresInstanceAdmin()
@Controller('admin/ai-prompts')
export class AiPromptsController {
  constructor(private readonly forward: Forwarder) {}

  @Get()
  @ApiOperation({ summary: 'Every prompt of the catalogue, with its effective text' })
  @Returns(AIPromptList)
  @Refuses(401, 403, 429, 503, 504, 'admin_required')
  list(@Req() req: FastifyRequest): Promise<AIPromptList> {
    return this.forward.send(AiPromptOperations.list, req);
  }

  @Get(':key')
  @ApiOperation({ summary: 'One prompt of the catalogue' })
  @Returns(AIPrompt)
  @Refuses(401, 403, 404, 429, 503, 504, 'admin_required')
  get(@Req() req: FastifyRequest, @Param('key') key: string): Promise<AIPrompt> {
    return this.forward.send(AiPromptOperations.get, req, { params: { key } });
  }

  /** E8 */
  @Put(':key')
  @ApiOperation({ summary: 'Override a prompt (1 to 20,000 characters)' })
  @ApiBody({ type: SavePromptRequest })
  @Returns(AIPrompt)
  @Refuses(400, 401, 403, 404, 413, 415, 422, 429, 503, 504, 'admin_required')
  save(@Req() req: FastifyRequest, @Param('key') key: string, @Body() raw: unknown): Promise<AIPrompt> {
    // The path comes first (docs/decisions.md): an unknown key is 404 whatever the body holds.
    if (!promptDefinition(key)) throw problems.notFound('No such prompt in the catalogue.');
    const body = new ValidBody(SavePromptRequest).transform(raw);
    return this.forward.send(AiPromptOperations.save, req, { params: { key }, body });
  }

  @Delete(':key')
  @ApiOperation({ summary: 'Drop the override: the prompt is its default again (200, overridden false)' })
  @Returns(AIPrompt)
  @Refuses(401, 403, 404, 429, 503, 504, 'admin_required')
  reset(@Req() req: FastifyRequest, @Param('key') key: string): Promise<AIPrompt> {
    return this.forward.send(AiPromptOperations.reset, req, { params: { key } });
  }
}
