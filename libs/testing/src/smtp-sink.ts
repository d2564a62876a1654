import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  received_at: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  smtpUrl: string;
  /** http://127.0.0.1:<port> of the control API (GET/DELETE /messages, PUT /refuse). */
  controlUrl: string;
  stop(): Promise<void>;
}

/** Refusals look like a real server's permanent failure, so callers see `responseCode` 550. */
function refusal(): Error {
  return Object.assign(new Error('Mailbox unavailable (sink set to refuse)'), { responseCode: 550 });
}

/**
 * A real SMTP server on 127.0.0.1 (no auth, no TLS) that keeps every mail in
 * memory, for `npm start` (print: each mail on stdout) and the e2e suites
 * (the control API reads mails and makes the server refuse).
 */
export async function startSmtpSink(options: { print?: boolean } = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  let refusing = false;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(refusing ? refusal() : undefined);
    },
    onData(stream, session, callback) {
      if (refusing) {
        stream.resume();
        stream.on('end', () => callback(refusal()));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          const receivedAt = new Date().toISOString();
          for (const rcpt of session.envelope.rcptTo) {
            const message: SinkMessage = {
              to: rcpt.address,
              from: mail.from?.text ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              received_at: receivedAt,
            };
            messages.push(message);
            if (options.print) {
              process.stdout.write(
                `\n[mail] ${receivedAt}\n  From: ${message.from}\n  To: ${message.to}\n  Subject: ${message.subject}\n\n` +
                  `${message.text.trimEnd().replace(/^/gm, '  ')}\n`,
              );
            }
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const control: Server = createServer((req, res) => {
    void handleControl(req).then(
      ({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
      () => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'bad request' }));
      },
    );
  });

  async function handleControl(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const url = new URL(req.url ?? '/', 'http://sink');
    if (url.pathname === '/messages' && req.method === 'GET') {
      const to = url.searchParams.get('to')?.toLowerCase();
      return { status: 200, body: to ? messages.filter((m) => m.to.toLowerCase() === to) : messages };
    }
    if (url.pathname === '/messages' && req.method === 'DELETE') {
      messages.length = 0;
      return { status: 200, body: { deleted: true } };
    }
    if (url.pathname === '/refuse' && req.method === 'PUT') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { refuse?: unknown };
      if (typeof body.refuse !== 'boolean') return { status: 400, body: { error: 'refuse must be a boolean' } };
      refusing = body.refuse;
      return { status: 200, body: { refuse: refusing } };
    }
    return { status: 404, body: { error: 'not found' } };
  }

  await new Promise<void>((resolve, reject) => {
    control.once('error', reject);
    control.listen(0, '127.0.0.1', () => resolve());
  });
  const controlPort = (control.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    stop: async () => {
      await new Promise<void>((resolve) => control.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
