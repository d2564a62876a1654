/**
 * `node tools/dist/nats-auth/generate.js <dir> [--compose-env <file>]`: one nkey
 * per app (made once, kept: `<dir>/<app>.nk`, the seed) and `<dir>/auth.conf`,
 * the `authorization` block nats-server includes, with each app's permissions
 * generated from libs/contracts (permissions.ts). `npm start` runs its NATS
 * with it; `--compose-env docker/.env` adds `NATS_NKEY_SEED_<APP>` lines for
 * docker/compose.yaml; k8s/components/nats-auth takes the seeds as Secrets
 * (docs/security.md).
 */
import { nkeys } from '@nats-io/transport-node';
import { REPO_ROOT } from '@social/testing';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { authorizationConfig, generatePermissions, NATS_APPS, type NatsApp } from './permissions.js';

export interface NatsAuthFiles {
  /** The file to `include` in nats-server's configuration. */
  configFile: string;
  /** Each app's nkey seed file (NATS_NKEY_SEED_FILE). */
  seedFiles: Record<NatsApp, string>;
}

/** Seeds are kept across runs (an app restarted keeps its identity); the configuration is rewritten from the sources each time. */
export function generateNatsAuth(dir: string, repoRoot = REPO_ROOT): NatsAuthFiles {
  mkdirSync(dir, { recursive: true });
  const seedFiles = {} as Record<NatsApp, string>;
  const publicKeys = {} as Record<NatsApp, string>;
  for (const app of NATS_APPS) {
    const seedFile = join(dir, `${app}.nk`);
    if (!existsSync(seedFile)) {
      writeFileSync(seedFile, `${new TextDecoder().decode(nkeys.createUser().getSeed())}\n`, { mode: 0o600 });
    }
    chmodSync(seedFile, 0o600);
    const seed = new TextEncoder().encode(readFileSync(seedFile, 'utf8').trim());
    publicKeys[app] = nkeys.fromSeed(seed).getPublicKey();
    seedFiles[app] = seedFile;
  }
  const configFile = join(dir, 'auth.conf');
  writeFileSync(configFile, authorizationConfig(generatePermissions(repoRoot), publicKeys));
  return { configFile, seedFiles };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv[2];
  if (!target) {
    process.stderr.write('usage: node tools/dist/nats-auth/generate.js <dir>\n');
    process.exit(2);
  }
  const files = generateNatsAuth(resolve(target));
  process.stdout.write(`${files.configFile}\n${Object.values(files.seedFiles).join('\n')}\n`);
  const envIndex = process.argv.indexOf('--compose-env');
  if (envIndex > 0 && process.argv[envIndex + 1]) {
    const envFile = resolve(process.argv[envIndex + 1]);
    const kept = existsSync(envFile)
      ? readFileSync(envFile, 'utf8')
          .split('\n')
          .filter((line) => line && !line.startsWith('NATS_NKEY_SEED_'))
      : [];
    writeFileSync(envFile, kept.map((line) => `${line}\n`).join(''), { mode: 0o600 });
    for (const [app, seedFile] of Object.entries(files.seedFiles)) {
      appendFileSync(envFile, `NATS_NKEY_SEED_${app.toUpperCase()}='${readFileSync(seedFile, 'utf8').trim()}'\n`);
    }
    process.stdout.write(`${envFile}: NATS_NKEY_SEED_<APP> for each app\n`);
  }
}
