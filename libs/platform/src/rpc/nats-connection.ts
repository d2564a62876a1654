import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, NatsConnection, nkeyAuthenticator, type ConnectionOptions } from '@nats-io/transport-node';

/** The NATS settings of `natsSettings()` (all optional but the URL). */
export interface NatsAuthSettings {
  NATS_URL: string;
  NATS_CREDS_FILE?: string;
  NATS_NKEY_SEED_FILE?: string;
  NATS_NKEY_SEED?: string;
  NATS_USER?: string;
  NATS_PASSWORD?: string;
  NATS_TOKEN?: string;
  NATS_TLS_CA_FILE?: string;
  NATS_TLS_CERT_FILE?: string;
  NATS_TLS_KEY_FILE?: string;
}

/**
 * The credential and TLS part of a NATS connection, from settings. Files are
 * read once, here: a missing one stops the process at start-up, naming it.
 */
export function natsAuthOptions(settings: Partial<NatsAuthSettings>): Partial<ConnectionOptions> {
  const read = (name: keyof NatsAuthSettings, path: string) => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new Error(`${name}: cannot read ${path} (${(error as Error).message})`);
    }
  };
  const kinds = [
    settings.NATS_CREDS_FILE,
    settings.NATS_NKEY_SEED_FILE,
    settings.NATS_NKEY_SEED,
    settings.NATS_USER,
    settings.NATS_TOKEN,
  ].filter(Boolean);
  if (kinds.length > 1) throw new Error('set only one of NATS_CREDS_FILE, NATS_NKEY_SEED_FILE, NATS_NKEY_SEED, NATS_USER and NATS_TOKEN');
  const options: Partial<ConnectionOptions> = {};
  if (settings.NATS_CREDS_FILE) options.authenticator = credsAuthenticator(read('NATS_CREDS_FILE', settings.NATS_CREDS_FILE));
  if (settings.NATS_NKEY_SEED_FILE) {
    options.authenticator = nkeyAuthenticator(
      new TextEncoder().encode(read('NATS_NKEY_SEED_FILE', settings.NATS_NKEY_SEED_FILE).toString('utf8').trim()),
    );
  }
  if (settings.NATS_NKEY_SEED) options.authenticator = nkeyAuthenticator(new TextEncoder().encode(settings.NATS_NKEY_SEED.trim()));
  if (settings.NATS_USER) {
    options.user = settings.NATS_USER;
    options.pass = settings.NATS_PASSWORD ?? '';
  }
  if (settings.NATS_TOKEN) options.token = settings.NATS_TOKEN;
  if (settings.NATS_TLS_CERT_FILE && !settings.NATS_TLS_KEY_FILE) throw new Error('NATS_TLS_CERT_FILE needs NATS_TLS_KEY_FILE');
  const tls = settings.NATS_TLS_CA_FILE || settings.NATS_TLS_CERT_FILE || settings.NATS_URL?.startsWith('tls:');
  if (tls) {
    options.tls = {
      ...(settings.NATS_TLS_CA_FILE && { ca: read('NATS_TLS_CA_FILE', settings.NATS_TLS_CA_FILE).toString('utf8') }),
      ...(settings.NATS_TLS_CERT_FILE && { cert: read('NATS_TLS_CERT_FILE', settings.NATS_TLS_CERT_FILE).toString('utf8') }),
      ...(settings.NATS_TLS_KEY_FILE && { key: read('NATS_TLS_KEY_FILE', settings.NATS_TLS_KEY_FILE).toString('utf8') }),
    };
  }
  return options;
}

/**
 * The NATS connection of every process. `auth` (the settings, or the result of
 * `natsAuthOptions`) brings credentials and TLS; without it, an open server.
 */
export async function connectNats(url: string, name: string, auth: Partial<ConnectionOptions> = {}): Promise<NatsConnection> {
  return connect({
    ...auth,
    servers: url,
    name,
    // nats.js builds two Error objects per request for async stack traces:
    // measurably ~20% of a gateway's CPU under `npm run bench`.
    noAsyncTraces: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
}

/** Credentials and TLS for tools and test helpers: the same variables the apps read, from the environment. */
export function natsAuthFromEnvironment(env: NodeJS.ProcessEnv = process.env): Partial<ConnectionOptions> {
  const value = (name: keyof NatsAuthSettings) => (env[name] ? env[name] : undefined);
  return natsAuthOptions({
    NATS_URL: value('NATS_URL') ?? '',
    NATS_CREDS_FILE: value('NATS_CREDS_FILE'),
    NATS_NKEY_SEED_FILE: value('NATS_NKEY_SEED_FILE'),
    NATS_NKEY_SEED: value('NATS_NKEY_SEED'),
    NATS_USER: value('NATS_USER'),
    NATS_PASSWORD: value('NATS_PASSWORD'),
    NATS_TOKEN: value('NATS_TOKEN'),
    NATS_TLS_CA_FILE: value('NATS_TLS_CA_FILE'),
    NATS_TLS_CERT_FILE: value('NATS_TLS_CERT_FILE'),
    NATS_TLS_KEY_FILE: value('NATS_TLS_KEY_FILE'),
  });
}
