/**
 * SECRETS_KEY as a keyring, so the key can be rotated without losing what it sealed:
 *   `<id>:<base64 32 bytes>,<id>:<base64>,…`: the first key seals (and signs cursors and upload URLs),
 *   every key opens and verifies. A bare `<base64>` (one key, as before keyrings) is the key `k0`.
 * Rotation: add the new key second (every app can now read it), make it first (new seals use it), run the
 * re-seal command of each service, then drop the old key. Ids: letters, digits, `_` and `-`.
 */
export interface SecretsKey {
  id: string;
  /** The base64 text as configured: derived keys (cursors, upload URLs) hash it, as they did before keyrings. */
  base64: string;
  key: Buffer;
}

const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** The id of a bare key (a SECRETS_KEY of one key, written before keyrings). */
export const LEGACY_KEY_ID = 'k0';

export class SecretsKeyringError extends Error {}

export function parseSecretsKeyring(raw: string): SecretsKey[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new SecretsKeyringError('must hold at least one key');
  const keys = entries.map((entry, index) => {
    const at = entry.indexOf(':');
    const id = at < 0 ? LEGACY_KEY_ID : entry.slice(0, at);
    const base64 = at < 0 ? entry : entry.slice(at + 1);
    if (at < 0 && entries.length > 1)
      throw new SecretsKeyringError(`key ${index + 1} needs an id ("<id>:<base64>") in a keyring of several keys`);
    if (!KEY_ID.test(id)) throw new SecretsKeyringError(`key id "${id}" may use only letters, digits, _ and - (at most 32)`);
    const key = Buffer.from(base64, 'base64');
    if (key.length !== KEY_BYTES || key.toString('base64') !== base64) {
      throw new SecretsKeyringError(
        at < 0 ? `must be ${KEY_BYTES} bytes, base64-encoded` : `key "${id}" must be ${KEY_BYTES} bytes, base64-encoded`,
      );
    }
    return { id, base64, key };
  });
  const ids = new Set(keys.map((k) => k.id));
  if (ids.size !== keys.length) throw new SecretsKeyringError('key ids must be unique');
  return keys;
}

/** The keys of a configured SECRETS_KEY, the sealing one first (throws SecretsKeyringError when malformed). */
export const secretsKeys = (raw: string): SecretsKey[] => parseSecretsKeyring(raw);

/**
 * The secrets that derived keys (list cursors, upload URLs) are made from: the sealing key first (it signs),
 * then the others (they still verify, so a rotation never breaks a cursor or an upload in flight).
 * A value that is not a keyring (a test's plain secret) is its own single secret.
 */
export function derivationSecrets(raw: string): string[] {
  try {
    return parseSecretsKeyring(raw.trim()).map((key) => key.base64);
  } catch {
    return [raw];
  }
}
