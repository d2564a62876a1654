import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StackSecrets {
  jwtPrivateKey: string;
  jwtPublicKey: string;
  /** 32 bytes, base64: encrypts secrets at rest. */
  secretsKey: string;
}

export function generateSecrets(): StackSecrets {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    secretsKey: randomBytes(32).toString('base64'),
  };
}

/** Dev keys are generated once into `dir` and reused, so sessions survive a restart of `npm start`. */
export function loadOrCreateSecrets(dir: string): StackSecrets {
  const file = join(dir, 'dev-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StackSecrets;
  mkdirSync(dir, { recursive: true });
  const secrets = generateSecrets();
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
