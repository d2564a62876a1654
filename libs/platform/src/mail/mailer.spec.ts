import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { MailDeliveryError, Mailer } from './mailer.js';

describe('Mailer', () => {
  it('refuses to send without SMTP_URL (not_configured)', async () => {
    const mailer = new Mailer({ SMTP_FROM: 'noreply@example.com' });
    expect(mailer.configured).toBe(false);
    const failure = await mailer.send({ to: 'a@example.com', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as MailDeliveryError).reason).toBe('not_configured');
  });

  it('reports a server that does not answer as unreachable', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    const mailer = new Mailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'noreply@example.com' });
    expect(mailer.configured).toBe(true);
    const failure = await mailer.send({ to: 'a@example.com', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as MailDeliveryError).reason).toBe('unreachable');
  });
});
