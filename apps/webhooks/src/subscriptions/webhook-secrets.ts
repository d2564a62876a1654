import { Injectable } from '@nestjs/common';
import { SecretBox } from '@social/platform';
import { randomBytes } from 'node:crypto';

/** How long a rotated-out secret keeps signing beside the new one (contract §10). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Webhook secrets sealed at rest (SecretBox, bound to the webhook's id so a sealed value copied to another row does not open). */
@Injectable()
export class WebhookSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(webhookId: string, secret: string): string {
    return this.box.seal(secret, `webhooks:${webhookId}`);
  }

  open(webhookId: string, sealed: string): string {
    return this.box.open(sealed, `webhooks:${webhookId}`);
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
