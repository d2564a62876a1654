import { describe, expect, it } from '@jest/globals';
import { readMultipart } from '@social/testing';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { multipartStream } from './multipart-stream.js';

/**
 * The streamed multipart body uploads are sent with, read back by the fakes' streaming reader over real HTTP
 * (chunked, as fetch sends a stream): fields and file intact, whatever the chunk boundaries, bytes that look
 * like a boundary included.
 */
describe('multipartStream', () => {
  async function roundTrip(fields: Record<string, string>, file: Buffer, chunk: number) {
    const server = createServer((req, res) => {
      readMultipart(req, () => 1024).then(
        (parsed) => res.end(JSON.stringify(parsed, (key, value) => (key === 'head' ? undefined : value))),
        (error: Error) => res.writeHead(400).end(error.message),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const pieces = Array.from({ length: Math.ceil(file.length / chunk) }, (_, index) =>
        file.subarray(index * chunk, (index + 1) * chunk),
      );
      const body = multipartStream(fields, {
        name: 'file',
        filename: 'upload.mp4',
        contentType: 'video/mp4',
        stream: Readable.from(pieces),
      });
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        method: 'POST',
        headers: { 'content-type': body.contentType },
        body: Readable.from(body.body) as unknown as RequestInit['body'],
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(200);
      return response.json();
    } finally {
      server.close();
    }
  }

  it.each([1, 7, 64, 65_536])('sends fields and the file whole in chunks of %i bytes', async (chunk) => {
    // A file holding CRLF and dashes, the bytes a boundary is made of.
    const file = Buffer.concat([randomBytes(3000), Buffer.from('\r\n------social-\r\n--\r\n'), randomBytes(3000)]);
    const parsed = await roundTrip({ description: 'Alt text — with “quotes” and\nnew lines' }, file, chunk);
    expect(parsed).toEqual({
      fields: { description: 'Alt text — with “quotes” and\nnew lines' },
      files: [
        {
          field: 'file',
          filename: 'upload.mp4',
          contentType: 'video/mp4',
          size: file.length,
          sha256: createHash('sha256').update(file).digest('hex'),
        },
      ],
    });
  });
});
