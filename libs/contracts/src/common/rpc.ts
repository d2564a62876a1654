/**
 * The envelope the gateway sends to a service for every HTTP operation, and the
 * identity it vouches for. Services authorize; the gateway only authenticates.
 */
export interface Principal {
  userId: string;
  sessionId: string;
  isAdmin: boolean;
  /** `session` for a signed-in user's access token, `api_token` for an API token. */
  tokenKind: 'session' | 'api_token';
  /** Set for workspace-bound API tokens only. */
  workspaceId: string | null;
}

export interface RpcRequest<Body = unknown, Query = Record<string, unknown>, Params = Record<string, string>> {
  principal: Principal | null;
  params: Params;
  query: Query;
  body: Body;
  idempotencyKey: string | null;
  /** The caller's address as the gateway saw it (for per-IP rate limits). */
  clientIp: string;
  /**
   * `{base_url}` as the client addressed the API (the gateway sets it): a service whose answer the gateway passes on
   * unparsed makes its URLs absolute with it. Absent from services' requests to each other.
   */
  baseUrl?: string;
}

/** NATS header carrying the gateway's request id across the hop. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * NATS header carrying the caller's verified identity: the user's own access
 * JWT, or a short-lived token the gateway or a service signed. Services build
 * the principal from it, never from the envelope.
 */
export const CALLER_TOKEN_HEADER = 'x-caller-token';

/** Every service answers `<service>.health.check`; the gateway's /ready asks each one. */
export const healthPattern = (service: string): string => `${service}.health.check`;

export interface HealthReply {
  service: string;
  database: boolean;
}
