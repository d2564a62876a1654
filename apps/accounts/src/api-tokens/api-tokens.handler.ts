import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountsPatterns, Principal, VerifyApiTokenRequest } from '@social/contracts';
import { ApiTokensService } from './api-tokens.service.js';

@Controller()
export class ApiTokensHandler {
  constructor(private readonly apiTokens: ApiTokensService) {}

  /** Asked by the gateway (which caches the answer briefly) for bearer tokens that are not JWTs. */
  @MessagePattern(AccountsPatterns.verifyApiToken)
  verify(@Payload() request: VerifyApiTokenRequest): Promise<Principal> {
    return this.apiTokens.verify(request.token);
  }
}
