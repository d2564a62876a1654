import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminDirectoryOperations, InstanceOverview, InstanceUserPage, ListInstanceUsersQuery } from '@social/contracts';
import type { FastifyRequest } from 'fastify';
import { RequiresInstanceAdmin } from '../auth/instance-admin.decorator.js';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns } from '../http/returns.decorator.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Administration')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@RequiresInstanceAdmin()
@Controller('admin')
export class DirectoryController {
  constructor(private readonly forward: Forwarder) {}

  /** E9 */
  @Get('users')
  @ApiOperation({
    summary: 'Instance users, newest first by default, with their usage counts',
    description: 'Counts a service did not report in time show 0, and usage_complete is false.',
  })
  @Returns(InstanceUserPage)
  @Refuses(401, 403, 422, 429, 503, 504, 'admin_required')
  users(
    @Req() req: FastifyRequest,
    @Query(new ValidQuery(ListInstanceUsersQuery)) query: ListInstanceUsersQuery,
  ): Promise<InstanceUserPage> {
    return this.forward.send(AdminDirectoryOperations.listUsers, req, { query: { ...query } });
  }

  /** E7 */
  @Get('overview')
  @ApiOperation({ summary: 'Instance-wide totals and 30-day daily trends' })
  @Returns(InstanceOverview)
  @Refuses(401, 403, 429, 503, 504, 'admin_required')
  overview(@Req() req: FastifyRequest): Promise<InstanceOverview> {
    return this.forward.send(AdminDirectoryOperations.overview, req);
  }
}
