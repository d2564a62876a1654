import type { Principal, RpcRequest } from '@social/contracts';
import { problems } from '../problems/problem.js';

/** The gateway authenticates; a request without a principal here is a wiring bug, refused as 401. */
export function requirePrincipal(req: RpcRequest<unknown, unknown, unknown>): Principal {
  if (!req.principal) throw problems.unauthorized('unauthenticated', 'A bearer token is required.');
  return req.principal;
}

/**
 * For account-level operations (organizations, tokens, security, profile
 * changes, notification settings): a workspace-bound API token is refused here
 * too, not only by the gateway, so no path around the gateway reaches them.
 */
export function requireAccountPrincipal(req: RpcRequest<unknown, unknown, unknown>): Principal {
  const principal = requirePrincipal(req);
  if (principal.workspaceId) throw problems.workspaceTokenForbidden();
  return principal;
}

/** Instance administration (docs/decisions.md): the service refuses non-admins itself, whatever the gateway did. */
export function requireAdmin(req: RpcRequest<unknown, unknown, unknown>): Principal {
  const principal = requirePrincipal(req);
  if (!principal.isAdmin) throw problems.adminRequired();
  return requireAccountPrincipal(req);
}
