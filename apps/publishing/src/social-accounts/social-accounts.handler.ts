import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CompleteSocialAccountConnectionQuery,
  ConnectSocialAccountRequest,
  HttpReply,
  ListSocialAccountsQuery,
  PublishingPatterns,
  RpcRequest,
  SocialAccount,
  SocialAccountAuthorization,
  SocialAccountList,
} from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { OAuthConnections } from './oauth-connections.service.js';
import { SocialAccountsService } from './social-accounts.service.js';

@Controller()
export class SocialAccountsHandler {
  constructor(
    private readonly accounts: SocialAccountsService,
    private readonly oauth: OAuthConnections,
  ) {}

  @MessagePattern(PublishingPatterns.listSocialAccounts)
  list(@Payload() req: RpcRequest): Promise<SocialAccountList> {
    const query = validateInput(ListSocialAccountsQuery, req.query, 'query');
    return this.accounts.list(requirePrincipal(req), query.workspace_id);
  }

  @MessagePattern(PublishingPatterns.getSocialAccount)
  async get(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<SocialAccount> {
    return this.accounts.get(requirePrincipal(req), pathId(req.params.id));
  }

  @MessagePattern(PublishingPatterns.connectSocialAccount)
  connect(@Payload() req: RpcRequest): Promise<HttpReply<SocialAccount | SocialAccountAuthorization>> {
    return this.accounts.connect(requirePrincipal(req), validateInput(ConnectSocialAccountRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.completeSocialAccountConnection)
  complete(@Payload() req: RpcRequest<unknown, unknown, { provider: string }>): Promise<HttpReply<SocialAccount>> {
    const principal = requirePrincipal(req);
    return this.oauth.complete(
      principal,
      String(req.params.provider ?? ''),
      validateInput(CompleteSocialAccountConnectionQuery, req.query, 'query'),
    );
  }

  @MessagePattern(PublishingPatterns.disconnectSocialAccount)
  async disconnect(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<null> {
    await this.accounts.disconnect(requirePrincipal(req), req.params.id);
    return null;
  }
}
