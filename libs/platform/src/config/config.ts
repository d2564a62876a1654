import { parseSecretsKeyring } from '../crypto/secrets-keyring.js';
import { isIP } from 'node:net';

/**
 * Settings come from the environment and are checked once at start-up: a
 * missing or malformed value stops the process with a message naming it.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Reader<T> = (raw: string | undefined, name: string) => T;

function required<T>(parse: (raw: string, name: string) => T, fallback?: T): Reader<T> {
  return (raw, name) => {
    if (raw === undefined || raw === '') {
      if (fallback !== undefined) return fallback;
      throw new Error(`${name} is required`);
    }
    return parse(raw, name);
  };
}

export const setting = {
  string: (fallback?: string) => required((raw) => raw, fallback),
  optionalString: (): Reader<string | undefined> => (raw) => (raw === '' ? undefined : raw),
  int: (min: number, max: number, fallback?: number) =>
    required((raw, name) => {
      const value = Number(raw);
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new Error(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      }
      return value;
    }, fallback),
  url: (protocols: string[], fallback?: string) =>
    required((raw, name) => {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new Error(`${name} must be a URL (got "${raw}")`);
      }
      if (!protocols.includes(url.protocol.replace(/:$/, ''))) {
        throw new Error(`${name} must use ${protocols.join(' or ')}`);
      }
      return raw.replace(/\/+$/, '');
    }, fallback),
  optionalUrl:
    (protocols: string[]): Reader<string | undefined> =>
    (raw, name) =>
      raw === undefined || raw === '' ? undefined : setting.url(protocols)(raw, name),
  oneOf: <T extends string>(values: readonly T[], fallback?: T) =>
    required((raw, name) => {
      if (!values.includes(raw as T)) throw new Error(`${name} must be one of ${values.join(', ')}`);
      return raw as T;
    }, fallback),
  /** Random key material, base64 (e.g. SECRETS_KEY: 32 bytes). */
  base64Key: (bytes: number) =>
    required((raw, name) => {
      if (Buffer.from(raw, 'base64').length !== bytes || Buffer.from(raw, 'base64').toString('base64') !== raw.trim()) {
        throw new Error(`${name} must be ${bytes} bytes, base64-encoded`);
      }
      return raw.trim();
    }),
  /** SECRETS_KEY: one base64 key, or a keyring `<id>:<base64>,…` whose first key seals (crypto/secrets-keyring.ts). */
  secretsKeyring: () =>
    required((raw, name) => {
      try {
        parseSecretsKeyring(raw.trim());
      } catch (error) {
        throw new Error(`${name} ${(error as Error).message}`);
      }
      return raw.trim();
    }),
  /** A literal IPv4 or IPv6 address (a listen address). */
  ipAddress: (fallback?: string) =>
    required((raw, name) => {
      if (isIP(raw.trim()) === 0) throw new Error(`${name} must be an IP address such as 127.0.0.1 or 0.0.0.0 (got "${raw}")`);
      return raw.trim();
    }, fallback),
  /**
   * Which proxies' X-Forwarded-* to believe, as Fastify's `trustProxy` takes it: false (none, the default), a
   * list of addresses/CIDRs, or for a hop count a function trusting that many hops nearest the server
   * (Fastify alone would trust none: only use a count where clients cannot reach the server but through them).
   */
  trustedProxies:
    () =>
    (raw: string | undefined, name: string): false | string | ((address: string, hop: number) => boolean) => {
      const value = raw?.trim() ?? '';
      if (value === '' || value === 'none') return false;
      if (/^\d+$/.test(value)) {
        const hops = Number(value);
        if (hops < 1 || hops > 10) throw new Error(`${name} as a hop count must be from 1 to 10 (got "${raw}")`);
        return (_address: string, hop: number) => hop < hops;
      }
      const entries = value.split(',').map((entry) => entry.trim());
      for (const entry of entries) {
        const [address, prefix, extra] = entry.split('/');
        const family = isIP(address);
        const prefixValid = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
        if (family === 0 || !prefixValid || extra !== undefined) {
          throw new Error(`${name} must be addresses or CIDRs separated by commas, or a hop count (got "${entry}")`);
        }
      }
      return entries.join(',');
    },
  pem: (label: 'PUBLIC KEY' | 'PRIVATE KEY') =>
    required((raw, name) => {
      const pem = raw.includes('\\n') ? raw.replace(/\\n/g, '\n') : raw;
      if (!pem.includes(`-----BEGIN ${label}-----`)) throw new Error(`${name} must be a PEM ${label.toLowerCase()}`);
      return pem;
    }),
};

export type ConfigSpec = Record<string, Reader<unknown>>;
export type ConfigOf<S extends ConfigSpec> = { [K in keyof S]: ReturnType<S[K]> };

export function loadConfig<S extends ConfigSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(spec)) {
    try {
      config[name] = read(env[name], name);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config as ConfigOf<S>;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Settings every process (gateway and services) shares for metrics and traces (docs/operations.md). */
export function observabilitySettings() {
  return {
    /** Port of the Prometheus `/metrics` endpoint, apart from the API and health ports; 0 turns it off. */
    METRICS_PORT: setting.int(0, 65535, 0),
    /** Address /metrics listens on: loopback by default; `0.0.0.0` where a scraper on the network reads it (k8s, compose). */
    METRICS_HOST: setting.ipAddress('127.0.0.1'),
    /** OTLP/HTTP collector for traces (e.g. http://otel-collector:4318); unset means no tracing at all. */
    OTEL_EXPORTER_OTLP_ENDPOINT: setting.optionalUrl(['http', 'https']),
  };
}

/** How a process stops on SIGTERM (docs/operations.md, "Restarts and graceful shutdown"). */
export function shutdownSettings() {
  return {
    /** Budget for finishing work in progress on SIGTERM; past it the process exits 1. Below Kubernetes' 30 s grace period. */
    SHUTDOWN_GRACE_MS: setting.int(100, 600_000, 20_000),
  };
}

/** JetStream storage settings of every app that creates streams, KV buckets or object stores. */
export function jetStreamSettings() {
  return {
    /** Copies of each stream, KV bucket and object store (1 for one NATS server; 3 in a production cluster). */
    JETSTREAM_REPLICAS: setting.int(1, 5, 1),
    /** The media object store bucket's max_bytes (JetStream reserves it on the server): media never fills the event streams' disk. */
    MEDIA_OBJECT_STORE_MAX_BYTES: setting.int(1, Number.MAX_SAFE_INTEGER, 8 * 1024 ** 3),
  };
}

/**
 * How a process authenticates to NATS and trusts it (docs/security.md): at most
 * one of a `.creds` file, an nkey seed file, user + password or a token; TLS
 * with an optional CA and client certificate. All unset: an open local NATS.
 */
export function natsSettings() {
  return {
    NATS_URL: setting.url(['nats', 'tls'], 'nats://127.0.0.1:4222'),
    /** A `.creds` file (JWT + nkey seed, as `nsc` writes them). */
    NATS_CREDS_FILE: setting.optionalString(),
    /** A file holding an nkey seed (`SU…`), or the seed itself (e.g. from a Kubernetes Secret). */
    NATS_NKEY_SEED_FILE: setting.optionalString(),
    NATS_NKEY_SEED: setting.optionalString(),
    NATS_USER: setting.optionalString(),
    NATS_PASSWORD: setting.optionalString(),
    NATS_TOKEN: setting.optionalString(),
    /** PEM CA bundle the server's certificate must chain to; setting it (or a client certificate) turns TLS on. */
    NATS_TLS_CA_FILE: setting.optionalString(),
    NATS_TLS_CERT_FILE: setting.optionalString(),
    NATS_TLS_KEY_FILE: setting.optionalString(),
  };
}

/** The platform's JWT key pair: every process signs and checks the caller tokens of NATS requests with it (docs/security.md). */
export function callerTokenSettings() {
  return {
    JWT_PRIVATE_KEY: setting.pem('PRIVATE KEY'),
    JWT_PUBLIC_KEY: setting.pem('PUBLIC KEY'),
  };
}

/** Settings every service shares (docs/decisions.md). */
export const serviceSettings = {
  ...natsSettings(),
  ...callerTokenSettings(),
  DATABASE_URL: setting.url(['postgres', 'postgresql']),
  LOG_LEVEL: setting.oneOf(LOG_LEVELS, 'info'),
  /** Port of the small HTTP health endpoint for Kubernetes probes; 0 turns it off. */
  HEALTH_PORT: setting.int(0, 65535, 0),
  /** Apply pending migrations at start-up (`false` in Kubernetes, where the init container runs them with the owner role). */
  MIGRATE_ON_START: setting.oneOf(['true', 'false'] as const, 'true'),
  /** How long the pool waits for a new PostgreSQL connection before the query fails (instead of hanging in an outage). */
  DATABASE_CONNECT_TIMEOUT_MS: setting.int(100, 600_000, 5_000),
  /** PostgreSQL cancels a statement of the service's pool that runs longer (migrations have none). */
  DATABASE_STATEMENT_TIMEOUT_MS: setting.int(100, 3_600_000, 30_000),
  ...observabilitySettings(),
  ...shutdownSettings(),
  ...jetStreamSettings(),
  /** Deliveries of a durable event before it goes to the dead-letter stream. */
  EVENTS_MAX_DELIVER: setting.int(2, 1000, 10),
};
