import { Injectable } from '@nestjs/common';
import { SecretBox, type SealedColumn } from '@social/platform';
import { randomBytes } from 'node:crypto';

/** How long a rotated-out secret keeps signing beside the new one (contract §10). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The context a webhook's secrets are sealed with: bound to its id, so a value copied to another row does not open. */
const sealingContext = (webhookId: string): string => `webhooks:${webhookId}`;

/** Re-sealed by `main.js reseal` after a SECRETS_KEY rotation. */
export const webhooksSealedColumns: SealedColumn[] = ['secret', 'previous_secret'].map((column) => ({
  table: 'webhooks',
  key: 'id',
  column,
  context: (row) => sealingContext(String(row.id)),
}));

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Webhook secrets sealed at rest (SecretBox with SECRETS_KEY, docs/security.md "Safe storage"). */
@Injectable()
export class WebhookSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(webhookId: string, secret: string): string {
    return this.box.seal(secret, sealingContext(webhookId));
  }

  open(webhookId: string, sealed: string): string {
    return this.box.open(sealed, sealingContext(webhookId));
  }

  /** The secrets that sign now: the current one, and the previous one during its overlap. */
  signing(row: { id: string; secret: string; previous_secret: string; previous_secret_until: Date | null }, now = new Date()): string[] {
    const secrets = [this.open(row.id, row.secret)];
    if (row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until) > now) {
      secrets.push(this.open(row.id, row.previous_secret));
    }
    return secrets;
  }
}
