import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../subscriptions/webhook-secrets.js';
import { signedHeaders } from './signature.js';

describe('signedHeaders', () => {
  const body = JSON.stringify({ type: 'webhook.test', data: { webhook_id: 'x' } });

  it('is verified by the standardwebhooks library with the secret', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], 'evt-1', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('signs with both secrets during a rotation, and each verifies alone', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders([current, previous], 'evt-2', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(body, { ...headers })).toThrow();
  });

  it('binds the id, the time and the body', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], 'evt-3', new Date(), body);
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt-4' })).toThrow();
  });

  it('makes secrets of 32 random bytes behind whsec_', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });
});
