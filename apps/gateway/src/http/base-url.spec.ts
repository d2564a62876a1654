import { describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { baseUrlOf, schemaUrl } from './base-url.js';

const request = (headers: Record<string, string | string[]>, protocol?: string) => ({ headers, protocol }) as unknown as FastifyRequest;

describe('baseUrlOf', () => {
  it('prefers PUBLIC_BASE_URL over anything a client or proxy says', () => {
    expect(baseUrlOf(request({ host: 'evil.example', 'x-forwarded-host': 'evil.example' }, 'http'), 'https://api.example.com')).toBe(
      'https://api.example.com',
    );
  });

  it('uses what the proxy forwarded (Fastify has already decided whether to believe it)', () => {
    expect(
      baseUrlOf(request({ host: 'gateway:8080', 'x-forwarded-host': 'api.example.com', 'x-forwarded-proto': 'https' }), undefined),
    ).toBe('https://api.example.com');
  });

  it('takes the first of several forwarded values, trimmed', () => {
    expect(baseUrlOf(request({ 'x-forwarded-host': ' api.example.com , inner.local', 'x-forwarded-proto': 'https,http' }), undefined)).toBe(
      'https://api.example.com',
    );
    expect(baseUrlOf(request({ 'x-forwarded-host': ['api.example.com', 'other'] }, 'http'), undefined)).toBe('http://api.example.com');
  });

  it("falls back to the Host header and the connection's protocol, then to http://localhost", () => {
    expect(baseUrlOf(request({ host: 'localhost:8080' }, 'https'), undefined)).toBe('https://localhost:8080');
    expect(baseUrlOf(request({ 'x-forwarded-host': '' }), undefined)).toBe('http://localhost');
  });
});

describe('schemaUrl', () => {
  it('names a JSON Schema under the base URL', () => {
    expect(schemaUrl('https://api.example.com', 'ErrorModel')).toBe('https://api.example.com/api/v1/schemas/ErrorModel.json');
  });
});
