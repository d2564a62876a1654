import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { SizedReplySerializer } from './sized-reply-serializer.js';

describe('replies and max_payload', () => {
  const logged: unknown[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });

  it('sends a reply that fits as Nest does (JSON of the packet)', () => {
    const serializer = new SizedReplySerializer(() => 1024 * 1024, logger);
    const packet = { id: 'r1', response: { text: 'x'.repeat(1000) }, isDisposed: true };
    expect(JSON.parse(serializer.serialize(packet).data)).toEqual(packet);
    expect(JSON.parse(new SizedReplySerializer(() => undefined, logger).serialize(packet).data)).toEqual(packet);
  });

  it('answers a 500 problem at once, naming max_payload in the log, for a reply the server would refuse', () => {
    const serializer = new SizedReplySerializer(() => 64 * 1024, logger);
    const reply = JSON.parse(serializer.serialize({ id: 'r2', response: { text: 'x'.repeat(64 * 1024) }, isDisposed: true }).data);
    expect(reply).toEqual({ id: 'r2', err: expect.objectContaining({ status: 500, code: 'internal_error' }), isDisposed: true });
    expect(logged).toEqual([expect.objectContaining({ max_payload: 64 * 1024 })]);
  });
});
