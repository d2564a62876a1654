import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsDirectoryPatterns,
  DirectoryUsersReply,
  DirectoryUsersRequest,
  UsageForUsersReply,
  UsageForUsersRequest,
  usageForUsersPattern,
  UsageTotals,
  UsageTotalsRequest,
  usageTotalsPattern,
  ACCOUNTS_SERVICE,
} from '@social/contracts';
import { DirectoryService } from './directory.service.js';

/** Service to service: asked by the admin service, which has already checked that its caller is an instance admin. */
@Controller()
export class DirectoryHandler {
  constructor(private readonly directory: DirectoryService) {}

  @MessagePattern(AccountsDirectoryPatterns.listUsers)
  listUsers(@Payload() request: DirectoryUsersRequest): Promise<DirectoryUsersReply> {
    return this.directory.listUsers(request);
  }

  @MessagePattern(usageForUsersPattern(ACCOUNTS_SERVICE))
  usageForUsers(@Payload() request: UsageForUsersRequest): Promise<UsageForUsersReply> {
    return this.directory.usageForUsers(request?.user_ids);
  }

  @MessagePattern(usageTotalsPattern(ACCOUNTS_SERVICE))
  totals(@Payload() request: UsageTotalsRequest): Promise<UsageTotals> {
    return this.directory.totals(request?.days);
  }
}
