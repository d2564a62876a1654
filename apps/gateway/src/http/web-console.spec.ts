import { describe, expect, it, beforeAll, afterAll } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { consoleAnswer, isNavigation, mountWebConsole, webConsoleDir } from './web-console.js';

const NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const BIG_SCRIPT = 'console.log("a line the console repeats");\n'.repeat(50);
const FILES = new Set(['/index.html', '/favicon.svg', '/assets/index-abc.js']);

describe('the web console beside the API', () => {
  it('tells a browser navigation from an API request', () => {
    expect(isNavigation(NAVIGATION)).toBe(true);
    expect(isNavigation('application/json')).toBe(false);
    expect(isNavigation('text/html, application/json')).toBe(false);
    expect(isNavigation('*/*')).toBe(false);
    expect(isNavigation(undefined)).toBe(false);
  });

  it('serves its files to anyone, and its page to navigations of any other path', () => {
    expect(consoleAnswer('GET', '/assets/index-abc.js', '*/*', FILES)).toEqual({ file: 'assets/index-abc.js' });
    expect(consoleAnswer('HEAD', '/favicon.svg', undefined, FILES)).toEqual({ file: 'favicon.svg' });
    expect(consoleAnswer('GET', '/', NAVIGATION, FILES)).toBe('page');
    expect(consoleAnswer('GET', '/calendar', NAVIGATION, FILES)).toBe('page');
    expect(consoleAnswer('GET', '/publications', NAVIGATION, FILES)).toBe('page');
  });

  it('leaves API requests to the API, also on paths the console shares', () => {
    expect(consoleAnswer('GET', '/publications', 'application/json', FILES)).toBeUndefined();
    expect(consoleAnswer('GET', '/publications', undefined, FILES)).toBeUndefined();
    expect(consoleAnswer('POST', '/calendar', NAVIGATION, FILES)).toBeUndefined();
    // The OAuth callback: the network's redirect (a navigation) opens the page, the page's SDK call reaches the API.
    expect(consoleAnswer('GET', '/social-accounts/callback/x', NAVIGATION, FILES)).toBe('page');
    expect(consoleAnswer('GET', '/social-accounts/callback/x', 'application/json', FILES)).toBeUndefined();
  });

  it('never takes the API pages meant for browsers, nor paths naming a missing file', () => {
    for (const path of ['/docs', '/docs/index.html', '/api/v1/publications', '/media/public/abc', '/media/m1/content', '/health/ready']) {
      expect(consoleAnswer('GET', path, NAVIGATION, FILES)).toBeUndefined();
    }
    expect(consoleAnswer('GET', '/openapi.json', NAVIGATION, FILES)).toBeUndefined();
    expect(consoleAnswer('GET', '/assets/gone-123.js', NAVIGATION, FILES)).toBeUndefined();
  });
});

describe('mountWebConsole on a Fastify app with API routes', () => {
  let dir: string;
  let app: FastifyInstance;
  let base: string;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'assets', 'app-1.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'big-2.js'), BIG_SCRIPT);
    app = Fastify();
    mountWebConsole(app, dir, pino({ level: 'silent' }));
    app.get('/social-accounts/callback/:provider', async () => ({ connected: true }));
    app.setNotFoundHandler((_request, reply) => reply.code(404).type('application/problem+json').send({ status: 404 }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a navigation to a deep link with index.html, uncached and unframeable', async () => {
    const response = await get('/calendar?view=week', { accept: NAVIGATION });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(await response.text()).toContain('<title>console</title>');
  });

  it('serves hashed assets for good, gzipped when the browser takes it and it is smaller', async () => {
    const response = await get('/assets/app-1.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toBe('console.log(1)');
    const big = await get('/assets/big-2.js', { 'accept-encoding': 'gzip, br' });
    expect(big.headers.get('content-encoding')).toBe('gzip');
    expect(await big.text()).toBe(BIG_SCRIPT);
  });

  it('keeps the API answer of a shared path for JSON requests, and API 404s as problems', async () => {
    const api = await get('/social-accounts/callback/x?code=1', { accept: 'application/json' });
    expect(await api.json()).toEqual({ connected: true });
    const page = await get('/social-accounts/callback/x?code=1', { accept: NAVIGATION });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const missing = await get('/nothing-here', { accept: 'application/json' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('is off when the folder has no built console', () => {
    expect(webConsoleDir(join(dir, 'assets'))).toBeUndefined();
    expect(webConsoleDir(dir)).toBe(dir);
  });
});
