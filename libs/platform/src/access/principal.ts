import type { Principal, RpcRequest } from '@social/contracts';
import { problems } from '../problems/problem.js';

/** The gateway authenticates; a request without a principal here is a wiring bug, refused as 401. */
export function requirePrincipal(req: RpcRequest<unknown, unknown, unknown>): Principal {
  if (!req.principal) throw problems.unauthorized('unauthenticated', 'A bearer token is required.');
  return req.principal;
}
