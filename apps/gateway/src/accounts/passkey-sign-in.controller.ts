import { Body, Controller, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthTokens, FinishPasskeySignInRequest, PasskeyOperations, PasskeySignInOptions } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { NoStore } from '../http/no-store.decorator.js';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Account and security')
@Controller('auth/passkeys/sign-in')
export class PasskeySignInController {
  constructor(private readonly forward: Forwarder) {}

  @Public()
  @Post('begin')
  @ApiOperation({
    summary: 'Start signing in with a passkey: WebAuthn request options for any passkey of this relying party (10 minutes)',
  })
  @Returns(PasskeySignInOptions)
  @Refuses(429, 503, 504)
  begin(@Req() req: FastifyRequest): Promise<PasskeySignInOptions> {
    return this.forward.send(PasskeyOperations.signInBegin, req);
  }

  @Public()
  @Post('finish')
  @ApiOperation({
    summary: 'Finish signing in with a passkey: the assertion is verified and a session opens, as with a password',
    description:
      'The challenge_id is single use: unknown, expired or used is 401 passkey_challenge_invalid. A passkey not registered here, ' +
      'or an assertion that fails verification, is 401 invalid_credentials; a credential that is not an assertion at all is 422.',
  })
  @Returns(AuthTokens)
  @Refuses(400, 401, 413, 415, 422, 429, 503, 504, 'passkey_challenge_invalid', 'invalid_credentials')
  @NoStore()
  finish(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(FinishPasskeySignInRequest)) body: FinishPasskeySignInRequest,
  ): Promise<AuthTokens> {
    return this.forward.send(PasskeyOperations.signInFinish, req, { body });
  }
}
