import { nothing, operation } from '../common/operation.js';
import { ApiToken, ApiTokenCreated, ApiTokenList, CreateApiTokenRequest } from './api-tokens.dto.js';

const NO_SUCH_API_TOKEN = 'No such API token.';

/** The caller's API tokens (accounts service); another user's or a deleted token is answered like a missing one. */
export const ApiTokenOperations = {
  create: operation({ subject: 'accounts.api-tokens.create', caller: 'account', body: CreateApiTokenRequest, answer: ApiTokenCreated }),
  list: operation({ subject: 'accounts.api-tokens.list', caller: 'account', answer: ApiTokenList }),
  get: operation({ subject: 'accounts.api-tokens.get', caller: 'account', params: { id: NO_SUCH_API_TOKEN }, answer: ApiToken }),
  delete: operation({ subject: 'accounts.api-tokens.delete', caller: 'account', params: { id: NO_SUCH_API_TOKEN }, answer: nothing }),
};
