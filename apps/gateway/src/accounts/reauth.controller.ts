import { Body, Controller, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReauthGrant, ReauthOperations, ReauthRequest } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { NoStore } from '../http/no-store.decorator.js';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Account and security')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@Controller('auth/reauth')
export class ReauthController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({
    summary: 'Confirm the password again for a single-use reauth_grant (5 minutes, this session only)',
    description: 'After 10 failed attempts in 15 minutes even the right password is refused (429) until the window passes.',
  })
  @Returns(ReauthGrant)
  @Refuses(400, 401, 403, 413, 415, 422, 429, 503, 504)
  @NoStore()
  create(@Req() req: FastifyRequest, @Body(new ValidBody(ReauthRequest)) body: ReauthRequest): Promise<ReauthGrant> {
    return this.forward.send(ReauthOperations.create, req, { body });
  }
}
