import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ACCOUNTS_SERVICE,
  OrganizationDeletion,
  OrganizationDeletionPreview,
  pendingWorkPattern,
  PendingWorkReply,
  PendingWorkRequest,
  RpcRequest,
  TenancyPatterns,
} from '@social/contracts';
import { requireAccountPrincipal } from '@social/platform';
import { OrganizationDeletionService } from './organization-deletion.service.js';

@Controller()
export class OrganizationDeletionHandler {
  constructor(private readonly deletion: OrganizationDeletionService) {}

  @MessagePattern(TenancyPatterns.previewOrganizationDeletion)
  preview(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<OrganizationDeletionPreview> {
    return this.deletion.preview(requireAccountPrincipal(req).userId, req.params.id);
  }

  @MessagePattern(TenancyPatterns.deleteOrganization)
  delete(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<OrganizationDeletion> {
    return this.deletion.delete(requireAccountPrincipal(req).userId, req.params.id);
  }

  @MessagePattern(pendingWorkPattern(ACCOUNTS_SERVICE))
  pendingWork(@Payload() request: PendingWorkRequest): Promise<PendingWorkReply> {
    return this.deletion.pendingWork(request);
  }
}
