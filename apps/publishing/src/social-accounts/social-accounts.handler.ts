import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ConnectSocialAccountRequest,
  ListSocialAccountsQuery,
  PublishingPatterns,
  RpcRequest,
  SocialAccount,
  SocialAccountAuthorization,
  SocialAccountList,
} from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { SocialAccountsService, toSocialAccount } from './social-accounts.service.js';

@Controller()
export class SocialAccountsHandler {
  constructor(private readonly accounts: SocialAccountsService) {}

  @MessagePattern(PublishingPatterns.listSocialAccounts)
  list(@Payload() req: RpcRequest): Promise<SocialAccountList> {
    const query = validateInput(ListSocialAccountsQuery, req.query, 'query');
    return this.accounts.list(requirePrincipal(req), query.workspace_id);
  }

  @MessagePattern(PublishingPatterns.getSocialAccount)
  async get(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<SocialAccount> {
    return toSocialAccount(await this.accounts.findVisible(requirePrincipal(req), pathId(req.params.id), 'viewer'));
  }

  @MessagePattern(PublishingPatterns.connectSocialAccount)
  connect(@Payload() req: RpcRequest): Promise<SocialAccount | SocialAccountAuthorization> {
    return this.accounts.connect(requirePrincipal(req), validateInput(ConnectSocialAccountRequest, req.body, 'body'));
  }

  @MessagePattern(PublishingPatterns.disconnectSocialAccount)
  async disconnect(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<null> {
    await this.accounts.disconnect(requirePrincipal(req), req.params.id);
    return null;
  }
}
