import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordHttpRoute } from '@social/platform';
import { sendProblem, toProblem } from './problem-response.js';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { RAW_UPLOAD_CONTENT_TYPE, UPLOAD_CONTENT_ROUTE } from '../media/media-storage.js';
import { applyDocumentBodyLimit, applyDocumentBodyParsing } from './body-limits.js';

const API_PREFIX = '/api/v1';
const SCHEMAS_PREFIX = '/api/v1/schemas/';
/** An incoming X-Request-Id is kept when it is short and plain; otherwise we mint one. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/**
 * Query parameters whose values are credentials (the OAuth callback's code
 * and state, a media upload URL's token): the access log shows them redacted.
 */
const REDACTED_QUERY_PARAMETERS = ['code', 'state', 'token'];

/** The request URL as the access log shows it. */
export function loggablePath(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const query = new URLSearchParams(url.slice(queryAt + 1));
  const secret = REDACTED_QUERY_PARAMETERS.filter((name) => query.has(name));
  if (secret.length === 0) return url;
  for (const name of secret) query.set(name, 'redacted');
  return `${url.slice(0, queryAt)}?${query}`;
}

export function fastifyOptions(config: GatewayConfig) {
  return {
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Only the configured proxies' X-Forwarded-For is believed; by default the peer address is the client.
    trustProxy: config.TRUSTED_PROXIES,
    // While closing on SIGTERM a request on a kept-alive connection is still answered (with Connection: close), not 503'd.
    return503OnClosing: false,
    // Every route also answers under /api/v1 (docs/decisions.md); the schema documents live only there.
    rewriteUrl: (req: { url?: string }) => {
      const url = req.url ?? '/';
      if (!url.startsWith(API_PREFIX) || url.startsWith(SCHEMAS_PREFIX)) return url;
      const rest = url.slice(API_PREFIX.length);
      if (rest === '' || rest.startsWith('?')) return `/${rest}`;
      return rest.startsWith('/') ? rest : url;
    },
    // Router failures (over-long or malformed paths) happen before any handler: render them as problems too.
    // No onRequest hook has run for them: the X-Request-Id the problem's request_id must match is set here.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) =>
      sendProblem(reply.header('x-request-id', request.id), request, toProblem(error).problem, config.PUBLIC_BASE_URL),
    genReqId: (req: { headers: IncomingMessage['headers'] }) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  };
}

/**
 * Request ids on every response, an access log line per request, JSON as the only body type, and
 * `documentBodyLimit` for the routes marked `@DocumentBody()` (every other JSON route keeps `BODY_LIMIT_BYTES`).
 */
export function configureFastify(fastify: FastifyInstance, logger: Logger, documentBodyLimit: number) {
  applyDocumentBodyLimit(fastify, documentBodyLimit);
  applyDocumentBodyParsing(fastify);
  fastify.removeContentTypeParser(['text/plain']);
  // The signed upload route takes raw bytes of any type: its body is handed on as the request stream (never parsed,
  // never buffered, no JSON body limit); every other route keeps JSON only.
  fastify.addContentTypeParser(RAW_UPLOAD_CONTENT_TYPE, (_request, payload, done) => done(null, payload));
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    recordHttpRoute(request.routeOptions.url);
    if (request.routeOptions.url === UPLOAD_CONTENT_ROUTE && request.method === 'PUT')
      request.headers['content-type'] = RAW_UPLOAD_CONTENT_TYPE;
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    logger.info(
      {
        request_id: request.id,
        method: request.method,
        path: loggablePath(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
}
