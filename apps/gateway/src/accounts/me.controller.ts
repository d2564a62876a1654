import { Body, Controller, Get, Patch, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProfileOperations, SecurityStatus, UpdateProfileRequest, UserProfile } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Account and security')
@ApiBearerAuth()
@Controller('auth')
export class MeController {
  constructor(private readonly forward: Forwarder) {}

  @Get('me')
  @ApiOperation({ summary: "The caller's profile" })
  @Returns(UserProfile)
  @Refuses(401, 429, 503, 504)
  get(@Req() req: FastifyRequest): Promise<UserProfile> {
    return this.forward.send(ProfileOperations.get, req);
  }

  @Patch('me')
  @RefusesWorkspaceTokens()
  @ApiOperation({ summary: "Change the caller's profile; members left out stay as they are" })
  @Returns(UserProfile)
  @Refuses(400, 401, 409, 413, 415, 422, 429, 503, 504)
  update(@Req() req: FastifyRequest, @Body(new ValidBody(UpdateProfileRequest)) body: UpdateProfileRequest): Promise<UserProfile> {
    return this.forward.send(ProfileOperations.update, req, { body });
  }

  @Get('security')
  @RefusesWorkspaceTokens()
  @ApiOperation({ summary: 'Sign-in methods, passkeys and two-factor state' })
  @Returns(SecurityStatus)
  @Refuses(401, 403, 429, 503, 504)
  security(@Req() req: FastifyRequest): Promise<SecurityStatus> {
    return this.forward.send(ProfileOperations.getSecurity, req);
  }
}
