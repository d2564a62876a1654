import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ProviderApp, ProviderAppOperations, SaveProviderAppRequest, SaveProviderAppResponse } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { RequiresInstanceAdmin } from '../auth/instance-admin.decorator.js';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Administration')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@RequiresInstanceAdmin()
@Controller('admin/provider-apps')
export class ProviderAppsController {
  constructor(private readonly forward: Forwarder) {}

  /** E3 */
  @Post()
  @ApiOperation({
    summary: 'Create or update a provider app (upsert by provider and instance_url; secrets are write-only)',
    description: '409 managed_by_environment when an app with that key comes from the environment (PROVIDER_APPS).',
  })
  @Returns(SaveProviderAppResponse)
  @Refuses(400, 401, 403, 409, 413, 415, 422, 429, 503, 504, 'managed_by_environment', 'admin_required')
  save(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(SaveProviderAppRequest)) body: SaveProviderAppRequest,
  ): Promise<SaveProviderAppResponse> {
    return this.forward.send(ProviderAppOperations.save, req, { body });
  }

  /** E4: a bare array, without `$schema` (interface rule 3). */
  @Get()
  @ApiOperation({ summary: 'Every provider app, from the environment and the database' })
  @HttpCode(200)
  @ApiResponse({ status: 200, type: [ProviderApp] })
  @Refuses(401, 403, 429, 503, 504, 'admin_required')
  list(@Req() req: FastifyRequest): Promise<ProviderApp[]> {
    return this.forward.send(ProviderAppOperations.list, req);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a provider app (409 managed_by_environment for one from the environment)' })
  @ReturnsNothing()
  @Refuses(401, 403, 404, 409, 429, 503, 504, 'managed_by_environment', 'admin_required')
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(ProviderAppOperations.delete, req, { params: { id } });
  }
}
