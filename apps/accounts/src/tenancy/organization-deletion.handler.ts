import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ACCOUNTS_SERVICE,
  OrganizationOperations,
  pendingWorkPattern,
  type InputOf,
  type OrganizationDeletion,
  type OrganizationDeletionPreview,
  type PendingWorkReply,
  type PendingWorkRequest,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { OrganizationDeletionService } from './organization-deletion.service.js';

@Controller()
export class OrganizationDeletionHandler {
  constructor(private readonly deletion: OrganizationDeletionService) {}

  @Handles(OrganizationOperations.previewDeletion)
  preview(@Input() { principal, params }: InputOf<typeof OrganizationOperations.previewDeletion>): Promise<OrganizationDeletionPreview> {
    return this.deletion.preview(principal.userId, params.id);
  }

  @Handles(OrganizationOperations.delete)
  delete(@Input() { principal, params }: InputOf<typeof OrganizationOperations.delete>): Promise<OrganizationDeletion> {
    return this.deletion.delete(principal.userId, params.id);
  }

  @MessagePattern(pendingWorkPattern(ACCOUNTS_SERVICE))
  pendingWork(@Payload() request: PendingWorkRequest): Promise<PendingWorkReply> {
    return this.deletion.pendingWork(request);
  }
}
