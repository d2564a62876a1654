/**
 * Both kinds of key rotated under load, as k8s/README.md ("Rotating keys") tells an operator, each step a rolling
 * restart (one process at a time: its replacement is up before it stops):
 *   1. every process gets the new JWT public key beside the old one and SECRETS_KEY `k0:<old>,k1:<new>`;
 *   2. every process signs with the new JWT private key and seals with `k1` (SECRETS_KEY `k1:<new>,k0:<old>`);
 *   3. `main.js reseal` of admin and publishing seals every stored value again with `k1`;
 *   4. the clients refresh their access tokens (as they do within the tokens' 15 minutes);
 *   5. the old keys retire: JWT_PUBLIC_KEY the new key alone, SECRETS_KEY `k1:<new>`.
 * No request may answer 401; afterwards the old access token is refused, and the values sealed before the rotation
 * (admin: the AI key and an X app's client secret; publishing: an X connection's PKCE verifier) are sealed with the
 * new key and open with it alone, in the database and in use (E16 reaches the AI provider with the AI key).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { jwtKeyId, SecretBox } from '@social/platform';
import { generateSecrets, REPO_ROOT } from '@social/testing';
import pg from 'pg';
import type { FaultEnvironment } from './environment.js';
import { callApi, expectStatus, type Fault, type PlatformProcesses, seconds, type Tenant } from './fault.js';
import type { EventLoad, WriteLoad } from './load.js';

const run = promisify(execFile);

/** Restart order: the services, then the gateway (it holds the one public port, so it is stopped before its replacement starts). */
const APPS = ['accounts', 'notifications', 'admin', 'publishing', 'media', 'creative', 'insights', 'webhooks', 'gateway'];
/** The services with sealed columns (`sealedColumns` in their main.ts). */
const RESEALED = ['admin', 'publishing', 'webhooks'];

interface Keys {
  JWT_PUBLIC_KEY: string;
  JWT_PRIVATE_KEY: string;
  SECRETS_KEY: string;
}

export function keyRotation(env: FaultEnvironment, processes: PlatformProcesses, tenant: Tenant): Fault {
  const aiKey = `sk-fault-${randomUUID()}`;
  const steps: string[] = [];
  const resealed: string[] = [];
  /** How long the API was away at each gateway restart (one process on one port here; a Service spreads over several). */
  const gatewayGaps: number[] = [];
  let oauthStateId = '';
  let oldToken = '';
  let oldKid = '';
  let finalKeys: Keys | undefined;
  let writes: WriteLoad | undefined;
  let events: EventLoad | undefined;
  return {
    name: 'key rotation under load',
    inject: async (load, eventLoad) => {
      writes = load;
      events = eventLoad;
      // Values sealed with the old key (the tenant's owner is the instance's first user, its administrator).
      oauthStateId = await sealValues(env, tenant, aiKey);
      const old: Keys = {
        JWT_PUBLIC_KEY: env.env.JWT_PUBLIC_KEY!,
        JWT_PRIVATE_KEY: env.env.JWT_PRIVATE_KEY!,
        SECRETS_KEY: env.env.SECRETS_KEY!,
      };
      const fresh = generateSecrets();
      const both = `${old.JWT_PUBLIC_KEY.trim()}\n${fresh.jwtPublicKey.trim()}\n`;
      oldToken = tenant.session.token;
      oldKid = await jwtKeyId(old.JWT_PUBLIC_KEY);

      const step = async (name: string, work: () => Promise<void>) => {
        const started = Date.now();
        await work();
        steps.push(`${name} ${seconds(Date.now() - started)}`);
      };
      await step('add', () =>
        roll(env, processes, { ...old, JWT_PUBLIC_KEY: both, SECRETS_KEY: `k0:${old.SECRETS_KEY},k1:${fresh.secretsKey}` }, gatewayGaps),
      );
      const signing: Keys = {
        JWT_PUBLIC_KEY: both,
        JWT_PRIVATE_KEY: fresh.jwtPrivateKey,
        SECRETS_KEY: `k1:${fresh.secretsKey},k0:${old.SECRETS_KEY}`,
      };
      await step('use', () => roll(env, processes, signing, gatewayGaps));
      await step('reseal', async () => {
        for (const app of RESEALED) resealed.push(`${app} ${await reseal(env, app, signing)}`);
      });
      await step('refresh', async () => {
        await tenant.session.refresh(env.baseUrl);
        await eventLoad.session.refresh(env.baseUrl);
      });
      finalKeys = { JWT_PUBLIC_KEY: fresh.jwtPublicKey, JWT_PRIVATE_KEY: fresh.jwtPrivateKey, SECRETS_KEY: `k1:${fresh.secretsKey}` };
      await step('retire', () => roll(env, processes, finalKeys!, gatewayGaps));
    },
    verify: async () => {
      const problems: string[] = [];
      if (!finalKeys || !writes || !events) return { problems: ['the rotation did not finish'], figures: steps.join(', ') };
      const writes401 = writes.attempts.filter((attempt) => attempt.status === 401).length;
      if (writes401) problems.push(`${writes401} writes answered 401`);
      // events.unauthorized is checked for every fault.
      const me = async (token: string) => (await callApi(env.baseUrl, 'GET', '/auth/me', { token })).status;
      const newKid = await jwtKeyId(finalKeys.JWT_PUBLIC_KEY);
      const tokenKid = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid?: string }).kid;
      if (tokenKid(oldToken) !== oldKid) problems.push('the token from before the rotation did not carry the old kid');
      if (tokenKid(tenant.session.token) !== newKid) problems.push('the refreshed token does not carry the new kid');
      const [oldAnswer, newAnswer] = [await me(oldToken), await me(tenant.session.token)];
      if (oldAnswer !== 401) problems.push(`a token of the retired key answered ${oldAnswer}, not 401`);
      if (newAnswer !== 200) problems.push(`a token of the new key answered ${newAnswer}`);
      problems.push(...(await sealedValuesOpen(env, finalKeys, aiKey, oauthStateId)));
      const aiKeyUsed = await aiKeyReachesProvider(env, tenant, aiKey);
      if (aiKeyUsed) problems.push(aiKeyUsed);
      const connectAgain = await callApi(env.baseUrl, 'POST', '/social-accounts/connect', {
        token: tenant.session.token,
        body: { workspace_id: tenant.workspaceId, provider: 'x' },
      });
      if (connectAgain.status !== 200) problems.push(`starting an X connection after the rotation answered ${connectAgain.status}`);
      const figures =
        `keys: ${steps.join(', ')} (rolling restarts of ${APPS.length} apps; ` +
        `the gateway away ${gatewayGaps.map((gap) => seconds(gap)).join(', ')}), ` +
        `re-sealed ${resealed.join(', ')}; ${writes401} writes and ${events.unauthorized} API-token requests answered 401; ` +
        `old token ${oldAnswer} after retirement; sealed values open with the ` +
        `new key alone${aiKeyUsed ? '' : ', E16 sent the re-sealed AI key'}`;
      return { problems, figures };
    },
  };
}

/**
 * A rolling restart with `keys`: each running process of each app in turn is replaced by one with the new keys (a
 * service's replacement is up before the old one is stopped; the gateway, which holds the port, the other way round).
 * The environment keeps the keys for any replica started later.
 */
async function roll(env: FaultEnvironment, processes: PlatformProcesses, keys: Keys, gatewayGaps: number[]): Promise<void> {
  Object.assign(env.env, keys);
  for (const app of APPS) {
    for (const pid of processes.pidsOf(app)) {
      if (app === 'gateway') {
        const stopped = Date.now();
        await processes.stop(pid);
        await processes.start(app, `${app} (rolled)`);
        gatewayGaps.push(Date.now() - stopped);
      } else {
        await processes.start(app, `${app} (rolled)`);
        await processes.stop(pid);
      }
    }
  }
}

/** `node apps/<app>/dist/main.js reseal`, as an operator runs it in a pod (database and SECRETS_KEY only); its counts. */
async function reseal(env: FaultEnvironment, app: string, keys: Keys): Promise<string> {
  const { stdout } = await run(process.execPath, [`apps/${app}/dist/main.js`, 'reseal'], {
    cwd: REPO_ROOT,
    env: { ...env.env, ...keys, LOG_LEVEL: 'info' },
  });
  const line = stdout
    .split('\n')
    .map((text) => {
      try {
        return JSON.parse(text) as { resealed?: Record<string, number> };
      } catch {
        return undefined;
      }
    })
    .find((entry) => entry?.resealed);
  const total = Object.values(line?.resealed ?? {}).reduce((sum, count) => sum + count, 0);
  return `${total} value${total === 1 ? '' : 's'}`;
}

/**
 * Values sealed with the key in use: the AI key (an instance setting), an X app with its client secret (admin), and
 * the start of an X connection (publishing seals its PKCE verifier). The X connection's state row id.
 */
async function sealValues(env: FaultEnvironment, tenant: Tenant, aiKey: string): Promise<string> {
  const token = tenant.session.token;
  await expectStatus(
    200,
    callApi(env.baseUrl, 'PUT', '/admin/instance-settings', { token, body: { settings: [{ key: 'ai_api_key', value: aiKey }] } }),
    'saving the AI key',
  );
  await expectStatus(
    200,
    callApi(env.baseUrl, 'POST', '/admin/provider-apps', {
      token,
      body: {
        provider: 'x',
        client_id: 'faults-x-client',
        client_secret: `x-secret-${randomUUID()}`,
        redirect_uri: '',
        connection_mode: 'oauth',
        is_active: true,
      },
    }),
    'saving an X app',
  );
  await expectStatus(
    200,
    callApi(env.baseUrl, 'POST', '/social-accounts/connect', { token, body: { workspace_id: tenant.workspaceId, provider: 'x' } }),
    'starting an X connection',
  );
  const db = new pg.Client({ connectionString: env.postgres.url });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM publishing.oauth_states WHERE workspace_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [tenant.workspaceId],
    );
    if (!rows[0]) throw new Error('starting an X connection stored no state');
    return rows[0].id;
  } finally {
    await db.end();
  }
}

/**
 * The values sealed before the rotation, in the database: now sealed with
 * `k1`, and (where the context is known here) opening with the new key alone.
 */
async function sealedValuesOpen(env: FaultEnvironment, keys: Keys, aiKey: string, oauthStateId: string): Promise<string[]> {
  const box = SecretBox.fromBase64Key(keys.SECRETS_KEY);
  const db = new pg.Client({ connectionString: env.postgres.url });
  await db.connect();
  const problems: string[] = [];
  try {
    const check = (what: string, envelope: string | undefined, context?: string, expected?: string) => {
      if (!envelope) return problems.push(`${what}: not stored`);
      if (!envelope.startsWith('v2.k1.')) return problems.push(`${what}: still sealed with ${envelope.split('.').slice(0, 2).join('.')}`);
      if (context === undefined) return undefined;
      try {
        const value = box.open(envelope, context);
        if (expected !== undefined && value !== expected) problems.push(`${what}: opens to another value`);
      } catch (error) {
        problems.push(`${what}: does not open with the new key (${(error as Error).message})`);
      }
      return undefined;
    };
    const setting = await db.query<{ sealed_value: string }>(`SELECT sealed_value FROM admin.instance_settings WHERE key = 'ai_api_key'`);
    check('instance setting ai_api_key', setting.rows[0]?.sealed_value, 'instance_settings:ai_api_key', aiKey);
    // Opened by admin in use (the reseal command opened it too); its context is admin's own.
    const app = await db.query<{ sealed_client_secret: string }>(
      `SELECT sealed_client_secret FROM admin.provider_apps WHERE provider = 'x'`,
    );
    check('X app client secret', app.rows[0]?.sealed_client_secret);
    const state = await db.query<{ sealed_code_verifier: string }>(
      `SELECT sealed_code_verifier FROM publishing.oauth_states WHERE id = $1`,
      [oauthStateId],
    );
    check('X connection PKCE verifier', state.rows[0]?.sealed_code_verifier, `oauth_states:${oauthStateId}`);
  } finally {
    await db.end();
  }
  return problems;
}

/** E16 after the rotation: admin opens the re-sealed AI key and publishing sends it to the provider. A problem, or undefined. */
async function aiKeyReachesProvider(env: FaultEnvironment, tenant: Tenant, aiKey: string): Promise<string | undefined> {
  const marker = `after-rotation-${randomUUID()}`;
  const answer = await callApi(env.baseUrl, 'POST', '/publication-builds/angles', {
    token: tenant.session.token,
    body: { workspace_id: tenant.workspaceId, idea: `An idea ${marker}` },
  });
  if (answer.status !== 200) return `E16 after the rotation answered ${answer.status}: ${JSON.stringify(answer.body)}`;
  const res = await fetch(`${env.aiControlUrl}/requests?match=${encodeURIComponent(marker)}`);
  const received = (await res.json()) as Array<{ authorization: string }>;
  if (received.length === 0) return 'E16 after the rotation never reached the AI provider';
  if (received.some((request) => request.authorization !== `Bearer ${aiKey}`)) return 'E16 after the rotation sent another AI key';
  return undefined;
}
