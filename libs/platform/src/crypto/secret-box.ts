import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { parseSecretsKeyring, SecretsKeyringError, type SecretsKey } from './secrets-keyring.js';

/** Envelopes before keyrings: no key id (opened by trying each key). */
const LEGACY_VERSION = 'v1';
/** `v2.<key id>.<nonce>.<ciphertext>.<tag>`: the key id names the keyring entry that sealed it. */
const VERSION = 'v2';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * Secrets at rest (provider-app secrets, secret instance settings, OAuth tokens): AES-256-GCM with a random
 * 12-byte nonce per seal, in a versioned text envelope `v2.<key id>.<nonce>.<ciphertext>.<tag>` (base64url).
 * An optional context (e.g. `instance_settings:smtp_url`) is bound as additional data with the version and
 * key id, so a ciphertext copied into another row does not open there.
 * The key is SECRETS_KEY's keyring (crypto/secrets-keyring.ts): the first key seals, every key opens, and
 * `needsReseal` tells the re-seal command which values still use an older key.
 */
export class SecretBox {
  private readonly byId: Map<string, SecretsKey>;

  private constructor(private readonly keys: SecretsKey[]) {
    this.byId = new Map(keys.map((key) => [key.id, key]));
  }

  /** `SECRETS_KEY`: one 32-byte base64 key, or a keyring `<id>:<base64>,…` (the first seals). */
  static fromBase64Key(value: string): SecretBox {
    try {
      return new SecretBox(parseSecretsKeyring(value.trim()));
    } catch (error) {
      if (error instanceof SecretsKeyringError) throw new SecretBoxError(`the key ${error.message}`);
      throw error;
    }
  }

  /** The id of the key new seals use. */
  get sealingKeyId(): string {
    return this.keys[0].id;
  }

  seal(plaintext: string, context = ''): string {
    const { id, key } = this.keys[0];
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(`${VERSION}:${id}:${context}`, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, id, ...[nonce, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
  }

  /** Throws SecretBoxError for a malformed or tampered envelope, a key not in the ring, or another context. */
  open(envelope: string, context = ''): string {
    const parts = envelope.split('.');
    if (parts[0] === VERSION && parts.length === 5) {
      const key = this.byId.get(parts[1]);
      if (!key) throw new SecretBoxError(`sealed with key "${parts[1]}", which SECRETS_KEY no longer holds`);
      return decrypt(key.key, `${VERSION}:${key.id}:${context}`, parts.slice(2));
    }
    if (parts[0] === LEGACY_VERSION && parts.length === 4) {
      for (const { key } of this.keys) {
        try {
          return decrypt(key, `${LEGACY_VERSION}:${context}`, parts.slice(1));
        } catch {
          // the next key
        }
      }
      throw new SecretBoxError('the sealed secret does not open with this key (tampered, or another key or context)');
    }
    throw new SecretBoxError('not a sealed secret of a known version');
  }

  /** True when the envelope was not sealed by the sealing key (an older key, or before keyrings): re-seal it. */
  needsReseal(envelope: string): boolean {
    const [version, id] = envelope.split('.');
    return version !== VERSION || id !== this.sealingKeyId;
  }
}

function decrypt(key: Buffer, aad: string, [nonceText, ciphertextText, tagText]: string[]): string {
  const [nonce, ciphertext, tag] = [nonceText, ciphertextText, tagText].map((part) => Buffer.from(part, 'base64url'));
  if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('malformed sealed secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('the sealed secret does not open with this key (tampered, or another key or context)');
  }
}
