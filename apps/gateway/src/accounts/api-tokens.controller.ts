import { Body, Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiToken, ApiTokenCreated, ApiTokenList, ApiTokenOperations, CreateApiTokenRequest } from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { NoStore } from '../http/no-store.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Account and security')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@Controller('api-tokens')
export class ApiTokensController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({ summary: 'Create an API token (the secret is shown only in this answer)' })
  @Returns(ApiTokenCreated, 201)
  @Refuses(400, 401, 403, 409, 413, 415, 422, 429, 503, 504)
  @NoStore()
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateApiTokenRequest)) body: CreateApiTokenRequest,
  ): Promise<ApiTokenCreated> {
    const created = await this.forward.send(ApiTokenOperations.create, req, { body });
    reply.header('location', `/api-tokens/${created.item.id}`);
    return created;
  }

  @Get()
  @ApiOperation({ summary: "The caller's API tokens (never their secrets)" })
  @Returns(ApiTokenList)
  @Refuses(401, 403, 429, 503, 504)
  list(@Req() req: FastifyRequest): Promise<ApiTokenList> {
    return this.forward.send(ApiTokenOperations.list, req);
  }

  @Get(':id')
  @ApiOperation({ summary: "One of the caller's API tokens (never its secret); a deleted or another user's token is 404" })
  @Returns(ApiToken)
  @Refuses(401, 403, 404, 429, 503, 504)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<ApiToken> {
    return this.forward.send(ApiTokenOperations.get, req, { params: { id } });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete an API token; it stops working on every gateway within seconds' })
  @ReturnsNothing()
  @Refuses(401, 403, 404, 429, 503, 504)
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(ApiTokenOperations.delete, req, { params: { id } });
  }
}
