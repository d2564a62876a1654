import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthOperations, AuthTokens, ChangePasswordRequest, LoginRequest, RefreshRequest, RegisterRequest } from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { NoStore } from '../http/no-store.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Account and security')
@Controller('auth')
export class AuthController {
  constructor(private readonly forward: Forwarder) {}

  @Public()
  @Post('register')
  @ApiOperation({ summary: 'Create an account; the first account of an instance becomes instance admin' })
  @Returns(AuthTokens, 201)
  @Refuses(400, 403, 409, 413, 415, 422, 429, 503, 504)
  @NoStore()
  async register(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(RegisterRequest)) body: RegisterRequest,
  ): Promise<AuthTokens> {
    const tokens = await this.forward.send(AuthOperations.register, req, { body });
    reply.header('location', '/auth/me');
    return tokens;
  }

  @Public()
  @Post('login')
  @ApiOperation({ summary: 'Sign in with email and password' })
  @Returns(AuthTokens)
  @Refuses(400, 401, 413, 415, 422, 429, 503, 504)
  @NoStore()
  login(@Req() req: FastifyRequest, @Body(new ValidBody(LoginRequest)) body: LoginRequest): Promise<AuthTokens> {
    return this.forward.send(AuthOperations.login, req, { body });
  }

  @Public()
  @Post('refresh')
  @ApiOperation({ summary: 'Exchange a refresh token for a new pair (the old one dies; reusing it ends the session)' })
  @Returns(AuthTokens)
  @Refuses(400, 401, 413, 415, 422, 503, 504)
  @NoStore()
  refresh(@Req() req: FastifyRequest, @Body(new ValidBody(RefreshRequest)) body: RefreshRequest): Promise<AuthTokens> {
    return this.forward.send(AuthOperations.refresh, req, { body });
  }

  @Post('password')
  @ApiBearerAuth()
  @RefusesWorkspaceTokens()
  @ApiOperation({
    summary: 'Change the password: every other session and every API token of the user are revoked; this session stays',
    description:
      'A wrong current_password is 422 at body.current_password (invalid_password) and counts like a failed sign-in: past 10 in 15 ' +
      'minutes ' +
      'from one client address, 429. Needs a signed-in session (an API token is 403 session_required). A security_action mail goes out.',
  })
  @ReturnsNothing()
  @Refuses(400, 401, 403, 413, 415, 422, 429, 503, 504, 'session_required', 'invalid_password')
  async changePassword(@Req() req: FastifyRequest, @Body(new ValidBody(ChangePasswordRequest)) body: ChangePasswordRequest): Promise<void> {
    await this.forward.send(AuthOperations.changePassword, req, { body });
  }

  @Post('logout')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'End this session; its access tokens stop working everywhere within seconds' })
  @ReturnsNothing()
  @Refuses(401, 429, 503, 504)
  async logout(@Req() req: FastifyRequest): Promise<void> {
    await this.forward.send(AuthOperations.logout, req);
  }
}
