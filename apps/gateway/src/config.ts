import {
  callerTokenSettings,
  ConfigOf,
  jetStreamSettings,
  LOG_LEVELS,
  natsSettings,
  observabilitySettings,
  setting,
  shutdownSettings,
} from '@social/platform';

export const gatewaySettings = {
  PORT: setting.int(1, 65535, 8080),
  /** The `{base_url}` clients use; when unset it is taken from X-Forwarded-* or Host. */
  PUBLIC_BASE_URL: setting.optionalUrl(['http', 'https']),
  ...natsSettings(),
  /** JWT_PUBLIC_KEY checks access tokens; JWT_PRIVATE_KEY signs the caller token of each NATS request. */
  ...callerTokenSettings(),
  /** Verifies the tokens of media upload URLs (an HMAC key is derived from it; the media service signs with the same). */
  SECRETS_KEY: setting.secretsKeyring(),
  LOG_LEVEL: setting.oneOf(LOG_LEVELS, 'info'),
  /** How long a request may wait for a service before it becomes a 504. */
  RPC_TIMEOUT_MS: setting.int(100, 120_000, 10_000),
  /** Requests one token may make per minute, across all gateway replicas (docs/decisions.md). */
  TOKEN_RATE_LIMIT_PER_MINUTE: setting.int(1, 1_000_000_000, 1200),
  /** Requests with a bearer token that fails verification allowed per client address per minute (docs/decisions.md); 429 beyond. */
  FAILED_AUTH_RATE_LIMIT_PER_MINUTE: setting.int(1, 1_000_000_000, 100),
  /**
   * Proxies whose X-Forwarded-* (client address, proto, host) are believed (docs/decisions.md): a comma-separated
   * list of addresses/CIDRs (e.g. `10.0.0.0/8`), or a hop count (`1` behind one ingress). Default: none.
   */
  TRUSTED_PROXIES: setting.trustedProxies(),
  /** Largest JSON body accepted (docs/decisions.md: 1 MiB). */
  BODY_LIMIT_BYTES: setting.int(1024, 64 * 1024 * 1024, 1024 * 1024),
  /**
   * Largest body of a route carrying an editor or video document (contract
   * §1: 5 MiB); lowered at start-up to what NATS's `max_payload` carries.
   */
  DOCUMENT_BODY_LIMIT_BYTES: setting.int(1024, 64 * 1024 * 1024, 5 * 1024 * 1024),
  /**
   * The built web console served at the origin root (README, "Web console"); default: the repository's
   * apps/web/dist when it was built. Absent in the gateway's container, whose console has a container of its own.
   */
  WEB_CONSOLE_DIR: setting.optionalString(),
  /**
   * Origins whose pages may call the API from a browser (CORS), comma-separated: the web console's own host when it
   * is served by its container (README, "Web console"). Default none: the console at this origin needs none.
   */
  CORS_ALLOWED_ORIGINS: setting.optionalString(),
  ...observabilitySettings(),
  ...shutdownSettings(),
  ...jetStreamSettings(),
};

export type GatewayConfig = ConfigOf<typeof gatewaySettings>;

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
