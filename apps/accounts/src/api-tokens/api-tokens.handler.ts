import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  ApiTokenCreated,
  ApiTokenList,
  CreateApiTokenRequest,
  Principal,
  RpcRequest,
  VerifyApiTokenRequest,
} from '@social/contracts';
import { requirePrincipal, validateInput } from '@social/platform';
import { ApiTokensService } from './api-tokens.service.js';

@Controller()
export class ApiTokensHandler {
  constructor(private readonly apiTokens: ApiTokensService) {}

  /** Asked by the gateway (which caches the answer briefly) for bearer tokens that are not JWTs. */
  @MessagePattern(AccountsPatterns.verifyApiToken)
  verify(@Payload() request: VerifyApiTokenRequest): Promise<Principal> {
    return this.apiTokens.verify(request.token);
  }

  @MessagePattern(AccountsPatterns.createApiToken)
  create(@Payload() req: RpcRequest<CreateApiTokenRequest>): Promise<ApiTokenCreated> {
    return this.apiTokens.create(requirePrincipal(req), validateInput(CreateApiTokenRequest, req.body, 'body'));
  }

  @MessagePattern(AccountsPatterns.listApiTokens)
  list(@Payload() req: RpcRequest): Promise<ApiTokenList> {
    return this.apiTokens.list(requirePrincipal(req).userId);
  }

  @MessagePattern(AccountsPatterns.deleteApiToken)
  async delete(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<null> {
    await this.apiTokens.delete(requirePrincipal(req).userId, req.params.id);
    return null;
  }
}
