import { describe, expect, it } from '@jest/globals';
import { Problem } from '../problems/problem.js';
import { CursorCodec } from './cursor-codec.js';

interface Position {
  at: string;
  id: string;
}
const isPosition = (value: unknown): value is Position =>
  !!value && typeof (value as Position).at === 'string' && typeof (value as Position).id === 'string';

function refusal(run: () => unknown): Problem {
  try {
    run();
  } catch (error) {
    return error as Problem;
  }
  throw new Error('expected a refusal');
}

describe('CursorCodec', () => {
  const codec = CursorCodec.derive('c2VjcmV0', 'things');
  const filters = { workspace_id: 'w1', status: '' };
  const position = { at: '2026-11-22T10:00:00.000Z', id: '0190-x' };

  it('round-trips a position for the same filters, whatever their key order', () => {
    const cursor = codec.encode(position, filters);
    expect(cursor).toMatch(/^[\w-]+\.[\w-]{22}$/);
    expect(codec.decode(cursor, { status: '', workspace_id: 'w1' }, isPosition)).toEqual(position);
  });

  it.each([
    ['other filters', (c: string) => c, { workspace_id: 'w2', status: '' }],
    ['another status', (c: string) => c, { workspace_id: 'w1', status: 'draft' }],
    [
      'an edited position',
      (c: string) => `${Buffer.from(JSON.stringify({ ...position, id: 'other' })).toString('base64url')}.${c.split('.')[1]}`,
      filters,
    ],
    ['an edited MAC', (c: string) => `${c.slice(0, -1)}${c.endsWith('A') ? 'B' : 'A'}`, filters],
    ['a character appended', (c: string) => `${c}A`, filters],
    ['no MAC', (c: string) => c.split('.')[0], filters],
    ['three parts', (c: string) => `${c}.x`, filters],
    ['garbage', () => '!!!', filters],
    ['empty', () => '', filters],
  ])('refuses %s with 422 at query.cursor', (_name, edit, decodeFilters) => {
    const problem = refusal(() => codec.decode(edit(codec.encode(position, filters)), decodeFilters, isPosition));
    expect(problem).toBeInstanceOf(Problem);
    expect(problem.status).toBe(422);
    expect(problem.options.errors?.[0].location).toBe('query.cursor');
  });

  it('refuses a cursor of another list or another secret, and a well-signed payload of the wrong shape', () => {
    const cursor = codec.encode(position, filters);
    expect(refusal(() => CursorCodec.derive('c2VjcmV0', 'others').decode(cursor, filters, isPosition)).status).toBe(422);
    expect(refusal(() => CursorCodec.derive('b3RoZXI=', 'things').decode(cursor, filters, isPosition)).status).toBe(422);
    expect(refusal(() => codec.decode(codec.encode({ at: 1 }, filters), filters, isPosition)).status).toBe(422);
  });
});
