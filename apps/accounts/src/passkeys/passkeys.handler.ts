import { Controller } from '@nestjs/common';
import { PasskeyOperations, type InputOf, type PasskeyRegistrationOptions, type SecurityStatus } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { PasskeysService } from './passkeys.service.js';

@Controller()
export class PasskeysHandler {
  constructor(private readonly passkeys: PasskeysService) {}

  @Handles(PasskeyOperations.begin)
  begin(@Input() { principal, body }: InputOf<typeof PasskeyOperations.begin>): Promise<PasskeyRegistrationOptions> {
    return this.passkeys.begin(principal, body.reauth_grant);
  }

  @Handles(PasskeyOperations.finish)
  finish(@Input() { principal, body }: InputOf<typeof PasskeyOperations.finish>): Promise<SecurityStatus> {
    return this.passkeys.finish(principal, body);
  }

  @Handles(PasskeyOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof PasskeyOperations.delete>): Promise<null> {
    await this.passkeys.delete(principal.userId, params.id);
    return null;
  }
}
