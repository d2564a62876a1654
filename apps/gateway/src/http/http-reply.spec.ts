import { describe, expect, it } from '@jest/globals';
import type { FastifyReply } from 'fastify';
import { unwrapHttpReply } from './http-reply.js';
import { PassedOnJson, SplicedJson } from './spliced-json.js';

function reply() {
  const applied: { status?: number; headers: Record<string, string> } = { headers: {} };
  const fastifyReply = {
    status(status: number) {
      applied.status = status;
      return fastifyReply;
    },
    header(name: string, value: string) {
      applied.headers[name] = value;
      return fastifyReply;
    },
  } as unknown as FastifyReply;
  return { fastifyReply, applied };
}

describe('unwrapHttpReply', () => {
  it("applies the service's status and answers its body", () => {
    const { fastifyReply, applied } = reply();
    expect(unwrapHttpReply(fastifyReply, { status: 201, body: { id: 'x' }, replayed: false })).toEqual({ id: 'x' });
    expect(applied).toEqual({ status: 201, headers: {} });
  });

  it('marks a replayed answer to an Idempotency-Key', () => {
    const { fastifyReply, applied } = reply();
    unwrapHttpReply(fastifyReply, { status: 201, body: {}, replayed: true });
    expect(applied.headers).toEqual({ 'idempotent-replayed': 'true' });
  });
});

describe('SplicedJson', () => {
  const document = '{"fps":30,"tracks":[]}';

  it('writes the members, then the already-serialized member last, as valid JSON', () => {
    const text = new SplicedJson({ id: 'p1', name: 'Teaser' }, 'document', document).text({ $schema: 'https://x/VideoProject.json' });
    expect(text).toBe('{"$schema":"https://x/VideoProject.json","id":"p1","name":"Teaser","document":{"fps":30,"tracks":[]}}');
    expect(JSON.parse(text)).toEqual({
      $schema: 'https://x/VideoProject.json',
      id: 'p1',
      name: 'Teaser',
      document: { fps: 30, tracks: [] },
    });
  });

  it('needs no comma when the spliced member is the only one', () => {
    expect(JSON.parse(new SplicedJson({}, 'document', document).text())).toEqual({ document: { fps: 30, tracks: [] } });
  });

  it('escapes the member name', () => {
    expect(JSON.parse(new SplicedJson({}, 'a"b', '1').text())).toEqual({ 'a"b': 1 });
  });
});

describe('PassedOnJson', () => {
  const passed = (json: string) => new PassedOnJson(Buffer.from(json));

  it("puts the gateway's members in front of the service's bytes", () => {
    const $schema = 'https://x/PublicationList.json';
    expect(JSON.parse(passed('{"publications":[{"title":"Café ✓"}],"next_cursor":""}').bytes({ $schema }).toString())).toEqual({
      $schema,
      publications: [{ title: 'Café ✓' }],
      next_cursor: '',
    });
    expect(JSON.parse(passed('{}').bytes({ $schema }).toString())).toEqual({ $schema });
    expect(JSON.parse(passed('{"a":1}').bytes({}).toString())).toEqual({ a: 1 });
  });

  it('passes anything but an object on as it came', () => {
    expect(passed('[1,2]').bytes({ $schema: 'x' }).toString()).toBe('[1,2]');
  });
});
