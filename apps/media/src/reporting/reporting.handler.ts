import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  MEDIA_SERVICE,
  UsageForUsersReply,
  UsageForUsersRequest,
  usageForUsersPattern,
  UsageTotals,
  usageTotalsPattern,
} from '@social/contracts';
import { ReportingService } from './reporting.service.js';

/** Service to service only (the gateway forwards none of these). */
@Controller()
export class ReportingHandler {
  constructor(private readonly reporting: ReportingService) {}

  @MessagePattern(usageForUsersPattern(MEDIA_SERVICE))
  usageForUsers(@Payload() request: UsageForUsersRequest): Promise<UsageForUsersReply> {
    return this.reporting.usageForUsers(request?.user_ids);
  }

  @MessagePattern(usageTotalsPattern(MEDIA_SERVICE))
  totals(): Promise<UsageTotals> {
    return this.reporting.totals();
  }
}
