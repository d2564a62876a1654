import { Controller } from '@nestjs/common';
import { ReauthOperations, type InputOf, type ReauthGrant } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { ReauthService } from './reauth.service.js';

@Controller()
export class ReauthHandler {
  constructor(private readonly reauth: ReauthService) {}

  @Handles(ReauthOperations.create)
  create(@Input() { principal, body }: InputOf<typeof ReauthOperations.create>): Promise<ReauthGrant> {
    return this.reauth.reauthenticate(principal, body.password);
  }
}
