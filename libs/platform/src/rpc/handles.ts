import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import type { AnyOperation, OperationInput, PathCheck, RpcRequest } from '@social/contracts';
import { requireAccountPrincipal, requireAdmin, requirePrincipal } from '../access/principal.js';
import { idempotencyKeyOf } from '../idempotency/idempotent-requests.js';
import { problems } from '../problems/problem.js';
import { pathId, validateInput } from '../validation/validate.js';

const OPERATION = Symbol('operation');

/** Serves an operation of libs/contracts: subscribes to its subject; `@Input()` then checks what it declares. */
export function Handles(operation: AnyOperation): MethodDecorator {
  return applyDecorators(MessagePattern(operation.subject), SetMetadata(OPERATION, operation));
}

/**
 * An operation's request, checked in a fixed order: the caller (401/403), the path ids (404), the query, then the
 * body (422 at `query.…` / `body.…`), and the Idempotency-Key (422 at `header.idempotency-key`).
 */
export function checkInput(
  operation: AnyOperation,
  request: RpcRequest<unknown, unknown, unknown>,
): OperationInput<never, string, unknown, unknown> {
  const principal = checkCaller(operation, request);
  const given = (request.params ?? {}) as Record<string, unknown>;
  const params: Record<string, string> = {};
  for (const [name, check] of Object.entries<PathCheck>(operation.params)) params[name] = checkParam(given[name], check);
  return {
    principal,
    params,
    query: operation.query ? validateInput(operation.query, request.query, 'query') : null,
    body: operation.body ? validateInput(operation.body, request.body, 'body') : null,
    idempotencyKey: operation.idempotent ? idempotencyKeyOf(request.idempotencyKey) : null,
    clientIp: request.clientIp,
    baseUrl: request.baseUrl ?? null,
  } as OperationInput<never, string, unknown, unknown>;
}

/** A path id (lower-cased), or a parameter its `PathRule` accepts (as sent), in declaration order. */
function checkParam(value: unknown, check: PathCheck): string {
  if (check === null || typeof check === 'string') return pathId(value, check ?? undefined);
  const text = typeof value === 'string' ? value : '';
  if (!check.accepts(text)) throw problems.notFound(check.notFound);
  return text;
}

function checkCaller(operation: AnyOperation, request: RpcRequest<unknown, unknown, unknown>) {
  switch (operation.caller) {
    case 'anyone':
      return request.principal ?? null;
    case 'account':
      return requireAccountPrincipal(request);
    case 'admin':
      return requireAdmin(request);
    default:
      return requirePrincipal(request);
  }
}

/** The operation `@Handles` declared on a handler (read once per handler, then cached). */
const operations = new WeakMap<object, AnyOperation>();
function operationOf(handler: object): AnyOperation {
  let operation = operations.get(handler);
  if (!operation) {
    operation = Reflect.getMetadata(OPERATION, handler) as AnyOperation | undefined;
    if (!operation) throw new Error(`@Input() needs @Handles(operation) on ${(handler as { name?: string }).name ?? 'the handler'}`);
    operations.set(handler, operation);
  }
  return operation;
}

/**
 * The checked input of the operation the handler `@Handles`: type it `InputOf<typeof Operations.x>`, so a handler
 * method is only its business call.
 */
export const Input = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  checkInput(operationOf(context.getHandler()), context.switchToRpc().getData<RpcRequest<unknown, unknown, unknown>>()),
);
