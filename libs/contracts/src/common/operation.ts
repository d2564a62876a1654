import type { HttpReply } from './http-reply.js';
import type { Principal } from './rpc.js';

/**
 * Who may call an operation, as the service that owns it checks again (the gateway checked the bearer token first):
 * - `anyone`: no token needed (register, login, public links);
 * - `member`: any signed-in caller, workspace-bound API tokens included; the service checks the role it needs;
 * - `account`: account-level operations, refused to workspace-bound API tokens;
 * - `admin`: instance administrators, with an account-level token.
 */
export type CallerRule = 'anyone' | 'member' | 'account' | 'admin';

/**
 * A path parameter that is not a UUID checked up front: `accepts` judges it as sent (refused: 404 with `notFound`, or
 * the generic detail), and the handler gets it unchanged.
 */
export interface PathRule {
  readonly accepts: (value: string) => boolean;
  readonly notFound?: string;
}

/**
 * A path parameter the service checks itself, because something else must be refused first (the caller's access to
 * the workspace an invitation or member belongs to): it reaches the handler as sent ("" when absent).
 */
export const checkedByService: PathRule = { accepts: () => true };

/** How a path parameter is checked: a UUID (the 404 detail, null for the generic one), or a `PathRule`. */
export type PathCheck = string | null | PathRule;

/** A DTO class of libs/contracts. */
export type Class<T> = new () => T;

/** A type-only marker for answers that are not a single DTO class (`replyOf`, `listOf`, `nothing`). */
export interface AnswerShape<Answer> {
  readonly shape: 'reply' | 'list' | 'nothing';
  readonly of: Class<unknown> | null;
  /** Never set: carries the answer's type. */
  readonly answer?: Answer;
}

/** The service answers an HttpReply (an idempotent create: its status, and whether it was replayed). */
export const replyOf = <T>(type: Class<T>): AnswerShape<HttpReply<T>> => ({ shape: 'reply', of: type });
/** The service answers an array of `type`. */
export const listOf = <T>(type: Class<T>): AnswerShape<T[]> => ({ shape: 'list', of: type });
/** The service answers `null` (the gateway answers 204). */
export const nothing: AnswerShape<null> = { shape: 'nothing', of: null };

/**
 * One operation of the platform, declared once: the NATS subject its service serves, who may call it, its path ids
 * (each with the 404 detail a malformed id gets), its query and body classes and its answer. The gateway forwards
 * with it (`Forwarder.send(operation, …)`, typed from it) and the service handles it (`@Handles(operation)` and
 * `@Input()`, which checks the caller and validates the ids, query and body in that order).
 */
export interface Operation<Caller extends CallerRule, Params extends string, Query, Body, Answer> {
  readonly subject: string;
  readonly caller: Caller;
  /** Path id name → the 404 detail when it is not a UUID (null: the generic one), or a `PathRule`. */
  readonly params: Readonly<Record<Params, PathCheck>>;
  readonly query: Class<Query> | null;
  readonly body: Class<Body> | null;
  readonly answer: Class<Answer> | AnswerShape<Answer>;
  /** Whether the operation takes an Idempotency-Key (a repeated key answers the first answer again). */
  readonly idempotent: boolean;
}

/** Any operation, for code that handles them generically. */
export type AnyOperation = Operation<CallerRule, string, any, any, any>;

export interface OperationSpec<Caller extends CallerRule, Params extends string, Query, Body, Answer> {
  subject: string;
  /** Default `member`. */
  caller?: Caller;
  params?: Record<Params, PathCheck>;
  query?: Class<Query>;
  body?: Class<Body>;
  answer: Class<Answer> | AnswerShape<Answer>;
  idempotent?: boolean;
}

/** Declares an operation (see `Operation`); its types are inferred from the classes given. */
export function operation<Answer, Caller extends CallerRule = 'member', Params extends string = never, Query = null, Body = null>(
  spec: OperationSpec<Caller, Params, Query, Body, Answer>,
): Operation<Caller, Params, Query, Body, Answer> {
  return {
    subject: spec.subject,
    caller: spec.caller ?? ('member' as Caller),
    params: spec.params ?? ({} as Record<Params, PathCheck>),
    query: spec.query ?? null,
    body: spec.body ?? null,
    answer: spec.answer,
    idempotent: spec.idempotent ?? false,
  };
}

/** What a service's handler receives for an operation, checked: see `@Input()` in libs/platform. */
export interface OperationInput<Caller extends CallerRule, Params extends string, Query, Body> {
  principal: Caller extends 'anyone' ? Principal | null : Principal;
  params: Record<Params, string>;
  query: Query;
  body: Body;
  /** The Idempotency-Key header, checked (1–200 characters); null when absent or the operation takes none. */
  idempotencyKey: string | null;
  /** The caller's address as the gateway saw it. */
  clientIp: string;
  /** `{base_url}` as the client addressed the API; null for a service's own request (see RpcRequest). */
  baseUrl: string | null;
}

/** The checked input of operation `O`: `@Input() { principal, params, body }: InputOf<typeof Operations.x>`. */
export type InputOf<O> =
  O extends Operation<infer Caller, infer Params, infer Query, infer Body, unknown> ? OperationInput<Caller, Params, Query, Body> : never;

/** The answer of operation `O`, as its service sends it. */
export type AnswerOf<O> = O extends Operation<CallerRule, string, unknown, unknown, infer Answer> ? Answer : never;
