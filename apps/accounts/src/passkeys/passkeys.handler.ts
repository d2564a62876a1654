import { Controller } from '@nestjs/common';
import {
  PasskeyOperations,
  type AuthTokens,
  type InputOf,
  type PasskeyRegistrationOptions,
  type PasskeySignInOptions,
  type SecurityStatus,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { PasskeySignInService } from './passkey-sign-in.service.js';
import { PasskeysService } from './passkeys.service.js';

@Controller()
export class PasskeysHandler {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly signIn: PasskeySignInService,
  ) {}

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

  @Handles(PasskeyOperations.signInBegin)
  signInBegin(): Promise<PasskeySignInOptions> {
    return this.signIn.begin();
  }

  @Handles(PasskeyOperations.signInFinish)
  signInFinish(@Input() { body }: InputOf<typeof PasskeyOperations.signInFinish>): Promise<AuthTokens> {
    return this.signIn.finish(body);
  }
}
