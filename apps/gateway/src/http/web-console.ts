import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { gzipSync } from 'node:zlib';

/**
 * The web console (apps/web) at the gateway's origin root, for `npm start` and single-host installs (README,
 * "Web console"). API routes keep their paths and answers; the console only takes what the API never answers:
 * - a GET or HEAD of one of its built files (`/assets/…`, `/favicon.svg`) gets that file;
 * - a browser navigation (Accept names text/html and no JSON) to any other path gets index.html, so deep links
 *   and the OAuth page `/social-accounts/callback/{provider}` open the console, while the SDK's JSON request to
 *   the same path gets the API;
 * - except the paths whose API answer is itself meant for a browser (`API_PAGES`) and paths naming a file.
 * Everything else, including every 404 for API clients, goes on to the API as before.
 */

/** Answered by the API even to a navigation: Swagger UI, /api/v1/…, media bytes, health probes. */
const API_PAGES = [/^\/docs(?:\/|$)/, /^\/api\//, /^\/media\/public\//, /^\/media\/[^/]+\/content$/, /^\/(?:health|ready)(?:\/|$)/];
/** A last segment with an extension names a file (`/openapi.json`, `/robots.txt`): never the console's page. */
const FILE_NAME = /\/[^/]*\.[^/]*$/;

/** The console's page is a script-only app: no inline script, no framing; media and uploads may be on other origins. */
export const CONSOLE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https: http:; " +
    "media-src 'self' blob: https: http:; connect-src 'self' https: http:; object-src 'none'; base-uri 'none'; " +
    "form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export type ConsoleAnswer = { file: string } | 'page' | undefined;

/**
 * What the console answers for a request, or undefined when it goes to the API. `path` is as the client sent it
 * (before /api/v1 is stripped); `files` are the built files as URL paths.
 */
export function consoleAnswer(method: string, path: string, accept: string | undefined, files: ReadonlySet<string>): ConsoleAnswer {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (files.has(path)) return { file: path.slice(1) };
  if (!isNavigation(accept) || FILE_NAME.test(path) || API_PAGES.some((pattern) => pattern.test(path))) return undefined;
  return 'page';
}

/** A browser opening a page asks for HTML; fetch() from the console or the SDK asks for JSON (or anything). */
export function isNavigation(accept: string | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  return value.includes('text/html') && !value.includes('json');
}

/**
 * The folder to serve: WEB_CONSOLE_DIR when set, else the repository's apps/web/dist when it was built; undefined
 * (no console) when neither holds an index.html, as in the gateway's own container.
 */
export function webConsoleDir(configured: string | undefined): string | undefined {
  const dir = configured ? resolve(configured) : fileURLToPath(new URL('../../../web/dist', import.meta.url));
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

/** The types of what Vite writes; anything else is sent as bytes. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;

interface ConsoleFile {
  type: string;
  body: Buffer;
  /** Kept when smaller: the console's script is a third of its size gzipped, and this is its first load. */
  gzipped?: Buffer;
}

/**
 * Serves the console from memory (a few hundred KB, read and gzipped once at start): a rebuilt console (new
 * hashed names) is served after a restart, as `npm start` does.
 */
export function mountWebConsole(fastify: FastifyInstance, dir: string, logger: Logger) {
  const files = readConsole(dir);
  const paths = new Set(files.keys());
  fastify.addHook('onRequest', async (request, reply) => {
    const answer = consoleAnswer(request.method, request.originalUrl.split('?')[0], request.headers.accept, paths);
    if (!answer) return;
    const name = answer === 'page' ? '/index.html' : `/${answer.file}`;
    return sendConsoleFile(reply, name, files.get(name)!, request.headers['accept-encoding']);
  });
  logger.info({ dir, files: files.size }, 'serving the web console at /');
}

function sendConsoleFile(reply: FastifyReply, name: string, file: ConsoleFile, acceptEncoding: string | undefined) {
  // Hashed asset names change with their content: cached for good. The page itself is checked on every visit.
  reply.header('cache-control', name.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (name === '/index.html') reply.headers(CONSOLE_SECURITY_HEADERS);
  reply.header('content-type', file.type).header('vary', 'accept-encoding');
  const gzip = file.gzipped && /\bgzip\b/.test(acceptEncoding ?? '');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? file.gzipped : file.body);
}

function readConsole(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const type = CONTENT_TYPES[extname(entry.name)] ?? 'application/octet-stream';
    const body = readFileSync(path);
    const gzipped = COMPRESSIBLE.test(type) ? gzipSync(body) : undefined;
    files.set(`/${relative(dir, path).split(sep).join('/')}`, {
      type,
      body,
      gzipped: gzipped && gzipped.length < body.length ? gzipped : undefined,
    });
  }
  return files;
}
