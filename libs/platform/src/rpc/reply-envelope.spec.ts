import { describe, expect, it } from '@jest/globals';
import { responseBytes, serializeReply } from './reply-envelope.js';

const bytes = (text: string) => Buffer.from(text);
const text = (data: Uint8Array | undefined) => (data === undefined ? undefined : Buffer.from(data).toString());

describe('reply envelope', () => {
  it('writes a reply as Nest reads it, with the response last', () => {
    const packet = { id: 'r1', isDisposed: true, response: { a: 1, list: [{ b: 'x' }] } };
    const written = serializeReply(packet);
    expect(JSON.parse(written)).toEqual(packet);
    expect(written.endsWith('"response":{"a":1,"list":[{"b":"x"}]}}')).toBe(true);
    expect(JSON.parse(serializeReply({ id: 'r1', err: { status: 404 }, isDisposed: true }))).toEqual({
      id: 'r1',
      err: { status: 404 },
      isDisposed: true,
    });
    expect(JSON.parse(serializeReply({ id: 'r1', isDisposed: true, response: null }))).toEqual({
      id: 'r1',
      isDisposed: true,
      response: null,
    });
  });

  it("gives back the response's bytes as written, whatever the id holds", () => {
    for (const id of ['r1', 'quote " and \\ backslash', 'ünïcødé ✓', ',"response":{"fake":1}']) {
      const response = { title: 'Café ✓', nested: { response: 'not this one' } };
      const answer = text(responseBytes(bytes(serializeReply({ id, isDisposed: true, response }))));
      expect(answer).toBe(JSON.stringify(response));
    }
  });

  it('gives nothing for a reply to parse whole: an error, or another writer', () => {
    expect(responseBytes(bytes(serializeReply({ id: 'r1', err: { status: 500 }, isDisposed: true })))).toBeUndefined();
    // Nest's own order (a service of an earlier version during a rolling upgrade): parsed whole, never sliced.
    expect(responseBytes(bytes('{"response":{"a":1},"isDisposed":true,"id":"r1"}'))).toBeUndefined();
    expect(responseBytes(bytes(serializeReply({ id: 'r1', isDisposed: true, response: { a: 1 }, extra: 1 })))).toBeUndefined();
    expect(responseBytes(bytes('not json'))).toBeUndefined();
    expect(text(responseBytes(bytes('{"id":"r1","isDisposed":true,"response":[1,2]}')))).toBe('[1,2]');
  });
});
