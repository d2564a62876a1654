import { Controller } from '@nestjs/common';
import { EmailChangeOperations, type EmailChangeSummary, type InputOf, type PendingEmailChange, type UserProfile } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { EmailChangeService } from './email-change.service.js';

@Controller()
export class EmailChangeHandler {
  constructor(private readonly emailChanges: EmailChangeService) {}

  @Handles(EmailChangeOperations.request)
  request(@Input() { principal, body }: InputOf<typeof EmailChangeOperations.request>): Promise<EmailChangeSummary> {
    return this.emailChanges.request(principal, body);
  }

  @Handles(EmailChangeOperations.confirm)
  confirm(@Input() { principal, params, body }: InputOf<typeof EmailChangeOperations.confirm>): Promise<UserProfile> {
    return this.emailChanges.confirm(principal, params.id, body.code);
  }

  @Handles(EmailChangeOperations.getPending)
  get(@Input() { principal }: InputOf<typeof EmailChangeOperations.getPending>): Promise<PendingEmailChange> {
    return this.emailChanges.pending(principal.userId);
  }

  @Handles(EmailChangeOperations.get)
  getOne(@Input() { principal, params }: InputOf<typeof EmailChangeOperations.get>): Promise<EmailChangeSummary> {
    return this.emailChanges.get(principal.userId, params.id);
  }

  @Handles(EmailChangeOperations.cancel)
  async cancel(@Input() { principal, params }: InputOf<typeof EmailChangeOperations.cancel>): Promise<null> {
    await this.emailChanges.cancel(principal.userId, params.id);
    return null;
  }
}
