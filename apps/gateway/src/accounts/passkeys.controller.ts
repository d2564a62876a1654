import { Body, Controller, Delete, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BeginPasskeyRequest,
  FinishPasskeyRequest,
  PasskeyOperations,
  PasskeyRegistrationOptions,
  SecurityStatus,
} from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Account and security')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@Controller('auth/security/passkeys')
export class PasskeysController {
  constructor(private readonly forward: Forwarder) {}

  @Post('begin')
  @ApiOperation({ summary: 'Start registering a passkey: consumes a reauth_grant, answers WebAuthn creation options (10 minutes)' })
  @Returns(PasskeyRegistrationOptions)
  @Refuses(400, 401, 403, 413, 415, 422, 429, 503, 504)
  begin(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(BeginPasskeyRequest)) body: BeginPasskeyRequest,
  ): Promise<PasskeyRegistrationOptions> {
    return this.forward.send(PasskeyOperations.begin, req, { body });
  }

  @Post('finish')
  @ApiOperation({
    summary: 'Finish registering a passkey (the attestation is verified); answers the security status',
    description: 'An unknown, expired, used or foreign challenge_id is 401; a credential that fails verification is 422.',
  })
  @Returns(SecurityStatus)
  @Refuses(400, 401, 403, 409, 413, 415, 422, 429, 503, 504)
  finish(@Req() req: FastifyRequest, @Body(new ValidBody(FinishPasskeyRequest)) body: FinishPasskeyRequest): Promise<SecurityStatus> {
    return this.forward.send(PasskeyOperations.finish, req, { body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a passkey' })
  @ReturnsNothing()
  @Refuses(401, 403, 404, 429, 503, 504)
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(PasskeyOperations.delete, req, { params: { id } });
  }
}
