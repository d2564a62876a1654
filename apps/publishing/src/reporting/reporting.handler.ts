import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  pendingWorkPattern,
  PendingWorkReply,
  PendingWorkRequest,
  PUBLISHING_SERVICE,
  UsageForUsersReply,
  UsageForUsersRequest,
  usageForUsersPattern,
  UsageTotals,
  UsageTotalsRequest,
  usageTotalsPattern,
} from '@social/contracts';
import { ReportingService } from './reporting.service.js';

/** Service to service only (the gateway forwards none of these). */
@Controller()
export class ReportingHandler {
  constructor(private readonly reporting: ReportingService) {}

  @MessagePattern(usageForUsersPattern(PUBLISHING_SERVICE))
  usageForUsers(@Payload() request: UsageForUsersRequest): Promise<UsageForUsersReply> {
    return this.reporting.usageForUsers(request?.user_ids);
  }

  @MessagePattern(usageTotalsPattern(PUBLISHING_SERVICE))
  totals(@Payload() request: UsageTotalsRequest): Promise<UsageTotals> {
    return this.reporting.totals(request?.days);
  }

  @MessagePattern(pendingWorkPattern(PUBLISHING_SERVICE))
  pendingWork(@Payload() request: PendingWorkRequest): Promise<PendingWorkReply> {
    return this.reporting.pendingWork(request?.workspace_ids);
  }
}
