import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type HttpReply,
  type InputOf,
  type RpcRequest,
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
  complete(
    @Input() { principal, query }: InputOf<typeof SocialAccountOperations.complete>,
    // The provider is a network's name, not a path id: read as sent, OAuthConnections judges it.
    @Payload('params') params: RpcRequest['params'] | undefined,
  ): Promise<HttpReply<SocialAccount>> {
    return this.oauth.complete(principal, String(params?.provider ?? ''), query);
  }

  @Handles(SocialAccountOperations.disconnect)
  async disconnect(@Input() { principal, params }: InputOf<typeof SocialAccountOperations.disconnect>): Promise<null> {
    await this.accounts.disconnect(principal, params.id);
    return null;
  }
}
