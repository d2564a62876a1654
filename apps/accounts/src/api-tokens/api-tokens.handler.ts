import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  ApiTokenOperations,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenList,
  type InputOf,
  type VerifiedApiToken,
  type VerifyApiTokenRequest,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { ApiTokensService } from './api-tokens.service.js';

@Controller()
export class ApiTokensHandler {
  constructor(private readonly apiTokens: ApiTokensService) {}

  /** Asked by the gateway (which caches the answer briefly) for bearer tokens that are not JWTs. */
  @MessagePattern(AccountsPatterns.verifyApiToken)
  verify(@Payload() request: VerifyApiTokenRequest): Promise<VerifiedApiToken> {
    return this.apiTokens.verify(request.token);
  }

  @Handles(ApiTokenOperations.create)
  create(@Input() { principal, body }: InputOf<typeof ApiTokenOperations.create>): Promise<ApiTokenCreated> {
    return this.apiTokens.create(principal, body);
  }

  @Handles(ApiTokenOperations.list)
  list(@Input() { principal }: InputOf<typeof ApiTokenOperations.list>): Promise<ApiTokenList> {
    return this.apiTokens.list(principal.userId);
  }

  @Handles(ApiTokenOperations.get)
  get(@Input() { principal, params }: InputOf<typeof ApiTokenOperations.get>): Promise<ApiToken> {
    return this.apiTokens.get(principal.userId, params.id);
  }

  @Handles(ApiTokenOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof ApiTokenOperations.delete>): Promise<null> {
    await this.apiTokens.delete(principal.userId, params.id);
    return null;
  }
}
