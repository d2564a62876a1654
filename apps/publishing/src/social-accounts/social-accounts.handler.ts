import { Controller } from '@nestjs/common';
import {
  type HttpReply,
  type InputOf,
  type SocialAccount,
  type SocialAccountAuthorization,
  type SocialAccountList,
  SocialAccountOperations,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { OAuthConnections } from './oauth-connections.service.js';
import { SocialAccountsService } from './social-accounts.service.js';

@Controller()
export class SocialAccountsHandler {
  constructor(
    private readonly accounts: SocialAccountsService,
    private readonly oauth: OAuthConnections,
  ) {}

  @Handles(SocialAccountOperations.list)
  list(@Input() { principal, query }: InputOf<typeof SocialAccountOperations.list>): Promise<SocialAccountList> {
    return this.accounts.list(principal, query.workspace_id);
  }

  @Handles(SocialAccountOperations.get)
  get(@Input() { principal, params }: InputOf<typeof SocialAccountOperations.get>): Promise<SocialAccount> {
    return this.accounts.get(principal, params.id);
  }

  @Handles(SocialAccountOperations.connect)
  connect(
    @Input() { principal, body }: InputOf<typeof SocialAccountOperations.connect>,
  ): Promise<HttpReply<SocialAccount | SocialAccountAuthorization>> {
    return this.accounts.connect(principal, body);
  }

  @Handles(SocialAccountOperations.complete)
  complete(@Input() { principal, params, query }: InputOf<typeof SocialAccountOperations.complete>): Promise<HttpReply<SocialAccount>> {
    return this.oauth.complete(principal, params.provider, query);
  }

  @Handles(SocialAccountOperations.disconnect)
  async disconnect(@Input() { principal, params }: InputOf<typeof SocialAccountOperations.disconnect>): Promise<null> {
    await this.accounts.disconnect(principal, params.id);
    return null;
  }
}
