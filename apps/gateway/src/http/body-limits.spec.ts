import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { applyDocumentBodyLimit, applyDocumentBodyParsing, documentBodyLimit, RPC_ENVELOPE_RESERVE_BYTES } from './body-limits.js';

const KiB = 1024;
const MiB = 1024 * KiB;

describe('the document body limit', () => {
  it('keeps the configured limit when a body that large fits a message with its envelope', () => {
    expect(documentBodyLimit(5 * MiB, 8 * MiB)).toEqual({ bytes: 5 * MiB });
    expect(documentBodyLimit(5 * MiB, 5 * MiB + RPC_ENVELOPE_RESERVE_BYTES)).toEqual({ bytes: 5 * MiB });
  });

  it("lowers it to what fits a server's smaller max_payload, and says so", () => {
    expect(documentBodyLimit(5 * MiB, 1 * MiB)).toEqual({
      bytes: 1 * MiB - RPC_ENVELOPE_RESERVE_BYTES,
      lowered: { configured: 5 * MiB, maxPayload: 1 * MiB },
    });
    expect(documentBodyLimit(5 * MiB, 5 * MiB + RPC_ENVELOPE_RESERVE_BYTES - 1)).toEqual({
      bytes: 5 * MiB - 1,
      lowered: { configured: 5 * MiB, maxPayload: 5 * MiB + RPC_ENVELOPE_RESERVE_BYTES - 1 },
    });
  });

  it('never goes below 1 KiB, and keeps the configured limit when the server says nothing', () => {
    expect(documentBodyLimit(5 * MiB, 10 * KiB).bytes).toBe(1 * KiB);
    expect(documentBodyLimit(5 * MiB, undefined)).toEqual({ bytes: 5 * MiB });
    expect(documentBodyLimit(5 * MiB, 0)).toEqual({ bytes: 5 * MiB });
  });

  it('applies to the routes marked as document routes only', async () => {
    const fastify = Fastify({ bodyLimit: 1 * KiB });
    applyDocumentBodyLimit(fastify, 4 * KiB);
    fastify.post('/document', { config: { documentBody: true } }, async (request) => ({ length: JSON.stringify(request.body).length }));
    fastify.post('/other', async (request) => ({ length: JSON.stringify(request.body).length }));
    const body = (bytes: number) => JSON.stringify({ text: 'x'.repeat(bytes - 11) });
    const base = await fastify.listen({ host: '127.0.0.1', port: 0 });
    try {
      const post = async (url: string, payload: string) =>
        (await fetch(`${base}${url}`, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } })).status;
      expect(body(3 * KiB)).toHaveLength(3 * KiB);
      expect(await post('/document', body(3 * KiB))).toBe(200);
      expect(await post('/document', body(4 * KiB))).toBe(200);
      expect(await post('/document', body(4 * KiB + 1))).toBe(413);
      expect(await post('/other', body(1 * KiB))).toBe(200);
      expect(await post('/other', body(1 * KiB + 1))).toBe(413);
    } finally {
      await fastify.close();
    }
  });

  it("keeps a free document's members named __proto__ or constructor, refuses them elsewhere, and keeps every limit", async () => {
    const fastify = Fastify({ bodyLimit: 1 * KiB });
    applyDocumentBodyLimit(fastify, 4 * KiB);
    applyDocumentBodyParsing(fastify);
    const echo = async (request: { body: unknown }) => ({
      json: JSON.stringify(request.body),
      prototypeIntact: Object.getPrototypeOf(request.body) === Object.prototype,
    });
    fastify.post('/free', { config: { documentBody: true, documentFreeMembers: true } }, echo);
    fastify.post('/strict', { config: { documentBody: true } }, echo);
    const base = await fastify.listen({ host: '127.0.0.1', port: 0 });
    try {
      const post = async (url: string, payload: string) => {
        const res = await fetch(`${base}${url}`, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } });
        return { status: res.status, body: (await res.json()) as { json?: string; prototypeIntact?: boolean } };
      };
      const document = '{"document":{"__proto__":{"polluted":true},"a":[{"constructor":{"prototype":{"x":1}}}]}}';
      const kept = await post('/free', document);
      expect(kept.status).toBe(200);
      expect(kept.body).toEqual({ json: document, prototypeIntact: true });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // The members beside the document are class-transformed: a top-level __proto__ is refused there too.
      expect((await post('/free', '{"__proto__":{"a":1},"document":{}}')).status).toBe(400);
      expect((await post('/strict', document)).status).toBe(400);
      expect((await post('/strict', '{"document":{"a":1}}')).status).toBe(200);
      for (const url of ['/free', '/strict']) {
        expect((await post(url, '')).status).toBe(400);
        expect((await post(url, '{"a":')).status).toBe(400);
        expect((await post(url, JSON.stringify({ text: 'x'.repeat(4 * KiB) }))).status).toBe(413);
      }
    } finally {
      await fastify.close();
    }
  });
});
