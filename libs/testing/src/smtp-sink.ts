import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  /** The HTML part; "" for plain-text mail. */
  html: string;
  received_at: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  smtpUrl: string;
  /** http://127.0.0.1:<port> of the control API (GET/DELETE /messages, PUT /refuse, PUT /refuse-address). */
  controlUrl: string;
  stop(): Promise<void>;
}

/** Refusals look like a real server's failure: permanent 550 by default, or the code the test set (451: try again later). */
function refusal(code = 550): Error {
  const text = code >= 500 ? 'Mailbox unavailable' : 'Mailbox busy, try again later';
  return Object.assign(new Error(`${text} (sink set to refuse)`), { responseCode: code });
}

/**
 * A real SMTP server on 127.0.0.1 (no auth, no TLS) that keeps every mail in
 * memory, for `npm start` (print: each mail on stdout) and the e2e suites
 * (the control API reads mails and makes the server refuse).
 */
export async function startSmtpSink(options: { print?: boolean } = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  let refusing = false;
  /** Recipients refused one by one (lower-cased address → SMTP code), however `refusing` is set. */
  const refusedAddresses = new Map<string, number>();

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = refusedAddresses.get(address.address.toLowerCase());
      callback(refusing ? refusal() : code ? refusal(code) : undefined);
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
              html: typeof mail.html === 'string' ? mail.html : '',
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
    if (url.pathname === '/refuse-address' && req.method === 'PUT') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { address?: unknown; code?: unknown };
      if (typeof body.address !== 'string') return { status: 400, body: { error: 'address must be a string' } };
      if (body.code === null || body.code === undefined) refusedAddresses.delete(body.address.toLowerCase());
      else if (typeof body.code === 'number' && body.code >= 400 && body.code < 600)
        refusedAddresses.set(body.address.toLowerCase(), body.code);
      else return { status: 400, body: { error: 'code must be a 4xx/5xx number, or null to accept again' } };
      return { status: 200, body: { address: body.address, code: body.code ?? null } };
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
