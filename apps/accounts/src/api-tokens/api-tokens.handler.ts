import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  ApiToken,
  ApiTokenCreated,
  ApiTokenList,
  CreateApiTokenRequest,
  RpcRequest,
  VerifiedApiToken,
  VerifyApiTokenRequest,
} from '@social/contracts';
import { requireAccountPrincipal, validateInput } from '@social/platform';
import { ApiTokensService } from './api-tokens.service.js';

@Controller()
export class ApiTokensHandler {
  constructor(private readonly apiTokens: ApiTokensService) {}

  /** Asked by the gateway (which caches the answer briefly) for bearer tokens that are not JWTs. */
  @MessagePattern(AccountsPatterns.verifyApiToken)
  verify(@Payload() request: VerifyApiTokenRequest): Promise<VerifiedApiToken> {
    return this.apiTokens.verify(request.token);
  }

  @MessagePattern(AccountsPatterns.createApiToken)
  create(@Payload() req: RpcRequest<CreateApiTokenRequest>): Promise<ApiTokenCreated> {
    return this.apiTokens.create(requireAccountPrincipal(req), validateInput(CreateApiTokenRequest, req.body, 'body'));
  }

  @MessagePattern(AccountsPatterns.listApiTokens)
  list(@Payload() req: RpcRequest): Promise<ApiTokenList> {
    return this.apiTokens.list(requireAccountPrincipal(req).userId);
  }

  @MessagePattern(AccountsPatterns.getApiToken)
  get(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<ApiToken> {
    return this.apiTokens.get(requireAccountPrincipal(req).userId, req.params.id);
  }

  @MessagePattern(AccountsPatterns.deleteApiToken)
  async delete(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<null> {
    await this.apiTokens.delete(requireAccountPrincipal(req).userId, req.params.id);
    return null;
  }
}
