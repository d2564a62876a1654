import { Webhook } from 'standardwebhooks';

/** The headers of one attempt (Standard Webhooks): the event's id, this attempt's time, and a signature per signing secret. */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs `body` with each secret (the current one, and the previous one during a rotation's overlap):
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, space-separated, as the standardwebhooks library makes them.
 */
export function signedHeaders(secrets: readonly string[], eventId: string, at: Date, body: string): SignedHeaders {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' '),
  };
}
