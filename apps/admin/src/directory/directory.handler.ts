import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AdminPatterns, InstanceOverview, InstanceUserPage, ListInstanceUsersQuery, RpcRequest } from '@social/contracts';
import { requireAdmin, validateInput } from '@social/platform';
import { DirectoryService } from './directory.service.js';

@Controller()
export class DirectoryHandler {
  constructor(private readonly directory: DirectoryService) {}

  @MessagePattern(AdminPatterns.listUsers)
  listUsers(@Payload() req: RpcRequest<unknown, ListInstanceUsersQuery>): Promise<InstanceUserPage> {
    requireAdmin(req);
    return this.directory.listUsers(validateInput(ListInstanceUsersQuery, req.query, 'query'));
  }

  @MessagePattern(AdminPatterns.overview)
  overview(@Payload() req: RpcRequest): Promise<InstanceOverview> {
    requireAdmin(req);
    return this.directory.overview();
  }
}
