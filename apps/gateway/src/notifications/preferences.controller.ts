import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotificationPreferenceOperations, NotificationPreferenceSettings, UpdatePreferencesRequest } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { PassedOnJson } from '../http/spliced-json.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Notifications')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@Controller('notifications/preferences')
export class PreferencesController {
  constructor(private readonly forward: Forwarder) {}

  /** E26 */
  @Get()
  @ApiOperation({ summary: 'Delivery preferences, topics and mutes' })
  @Returns(NotificationPreferenceSettings)
  @Refuses(401, 429, 503, 504)
  get(@Req() req: FastifyRequest): Promise<PassedOnJson> {
    // ~4.5 KB with every topic's definition, read often: passed on as notifications wrote it.
    return this.forward.passOn(NotificationPreferenceOperations.get, req);
  }

  /** E25 */
  @Put()
  @ApiOperation({ summary: 'Replace delivery preferences (topics left out return to their defaults)' })
  @Returns(NotificationPreferenceSettings)
  @Refuses(400, 401, 413, 415, 422, 429, 503, 504)
  replace(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(UpdatePreferencesRequest)) body: UpdatePreferencesRequest,
  ): Promise<NotificationPreferenceSettings> {
    return this.forward.send(NotificationPreferenceOperations.replace, req, { body });
  }
}
