import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InstanceSettingsOperations, InstanceSettingsResponse, SaveInstanceSettingsRequest } from '@social/contracts';
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
@Controller('admin/instance-settings')
export class InstanceSettingsController {
  constructor(private readonly forward: Forwarder) {}

  /** E6 */
  @Get()
  @ApiOperation({ summary: 'The instance settings registry with effective values (secrets redacted)' })
  @Returns(InstanceSettingsResponse)
  @Refuses(401, 403, 429, 503, 504, 'admin_required')
  get(@Req() req: FastifyRequest): Promise<InstanceSettingsResponse> {
    return this.forward.send(InstanceSettingsOperations.get, req);
  }

  /** E5 */
  @Put()
  @ApiOperation({
    summary: 'Save instance settings atomically ({key, value} or {key, unset: true} each)',
    description:
      'Values are strings in every type. Unknown or repeated keys and values of the wrong type are 422; nothing is saved then. ' +
      'Settings other than registration_enabled apply after a restart (requires_restart).',
  })
  @Returns(InstanceSettingsResponse)
  @Refuses(400, 401, 403, 413, 415, 422, 429, 503, 504, 'admin_required')
  save(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(SaveInstanceSettingsRequest)) body: SaveInstanceSettingsRequest,
  ): Promise<InstanceSettingsResponse> {
    return this.forward.send(InstanceSettingsOperations.save, req, { body });
  }
}
