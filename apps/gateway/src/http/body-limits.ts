import { RouteConfig } from '@nestjs/platform-fastify';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';

/**
 * Editor and video documents (docs/decisions.md: 5 MiB) take a larger body than other JSON (1 MiB). Every
 * body crosses NATS whole inside the RPC envelope, so the document limit is also bounded by the
 * connected server's `max_payload` (the platform configures 8 MiB; nats-server's default is 1 MiB).
 */

/**
 * Room kept in a NATS message for what travels beside the body: the RPC envelope (principal,
 * params, query, Idempotency-Key, client address, pattern, request id) and the NATS headers.
 */
export const RPC_ENVELOPE_RESERVE_BYTES = 64 * 1024;
/** Never lowered below this, however small a server's `max_payload`. */
const SMALLEST_DOCUMENT_LIMIT = 1024;

const DOCUMENT_BODY = 'documentBody';
const FREE_MEMBERS = 'documentFreeMembers';

/**
 * Marks a route whose body carries an editor or video document: it takes `DOCUMENT_BODY_LIMIT_BYTES` (as far as NATS
 * carries it). `freeMembers`: the document is the client's own JSON (video projects), so its members may be named
 * anything, `__proto__` and `constructor` included (see applyDocumentBodyParsing).
 */
export const DocumentBody = (options: { freeMembers?: boolean } = {}) =>
  RouteConfig({ [DOCUMENT_BODY]: true, [FREE_MEMBERS]: options.freeMembers === true });

export interface DocumentLimit {
  /** The body limit document routes get. */
  bytes: number;
  /** Set when the server's `max_payload` lowered the configured limit. */
  lowered?: { configured: number; maxPayload: number };
}

/**
 * The document body limit for a server whose messages carry at most `maxPayload` bytes: the configured
 * one when a body that large still fits a message with its envelope, else what fits.
 */
export function documentBodyLimit(configured: number, maxPayload: number | undefined): DocumentLimit {
  if (!maxPayload || maxPayload <= 0) return { bytes: configured };
  const fits = Math.max(SMALLEST_DOCUMENT_LIMIT, maxPayload - RPC_ENVELOPE_RESERVE_BYTES);
  if (configured <= fits) return { bytes: configured };
  return { bytes: fits, lowered: { configured, maxPayload } };
}

/** Gives the routes marked with `@DocumentBody()` their limit; call before Nest registers the routes (before `listen`/`init`). */
export function applyDocumentBodyLimit(fastify: FastifyInstance, bytes: number): void {
  fastify.addHook('onRoute', (route) => {
    if ((route.config as Record<string, unknown> | undefined)?.[DOCUMENT_BODY] === true) route.bodyLimit = bytes;
  });
}

const routeFlag = (request: FastifyRequest, flag: string): boolean =>
  (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[flag] === true;

/**
 * JSON bodies are parsed as Fastify does by default (a body naming `__proto__` or `constructor` anywhere is refused
 * as malformed), except on free-document routes: there JSON.parse makes such names plain own members, which the
 * document keeps (it is only serialized again, never merged into another object), and only the body's own top level
 * is refused for `__proto__`, as the members beside the document go through class-transformer. That route also skips
 * the two regular-expression scans of the whole body.
 */
export function applyDocumentBodyParsing(fastify: FastifyInstance): void {
  const strict = fastify.getDefaultJsonParser('error', 'error');
  const free = fastify.getDefaultJsonParser('ignore', 'ignore');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (!routeFlag(request, FREE_MEMBERS)) return strict(request, body, done);
    free(request, body, (error, parsed) => {
      if (!error && parsed !== null && typeof parsed === 'object' && Object.hasOwn(parsed, '__proto__'))
        return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
      done(error, parsed);
    });
  });
}
