import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * Secrets at rest (provider-app secrets, secret instance settings, later OAuth
 * tokens): AES-256-GCM with a random 12-byte nonce per seal, in a versioned
 * text envelope `v1.<nonce>.<ciphertext>.<tag>` (base64url). An optional
 * context (e.g. `instance_settings:smtp_url`) is bound as additional data, so
 * a ciphertext copied into another row does not open there.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** `SECRETS_KEY`: 32 bytes, base64. */
  static fromBase64Key(base64: string): SecretBox {
    const key = Buffer.from(base64, 'base64');
    if (key.length !== KEY_BYTES || key.toString('base64') !== base64.trim()) {
      throw new SecretBoxError(`the key must be ${KEY_BYTES} bytes, base64-encoded`);
    }
    return new SecretBox(key);
  }

  seal(plaintext: string, context = ''): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(`${VERSION}:${context}`, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, nonce, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** Throws SecretBoxError for a malformed or tampered envelope, another key, or another context. */
  open(envelope: string, context = ''): string {
    const parts = envelope.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed secret of a known version');
    const [, nonce, ciphertext, tag] = parts.map((part) => Buffer.from(part, 'base64url'));
    if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('malformed sealed secret');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, nonce);
      decipher.setAAD(Buffer.from(`${VERSION}:${context}`, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('the sealed secret does not open with this key (tampered, or another key or context)');
    }
  }
}
