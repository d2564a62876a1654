import type { FastifyInstance } from 'fastify';

/**
 * Cross-origin access for the web console when it is served from a host of its own (its container; README,
 * "Web console"): only the origins of CORS_ALLOWED_ORIGINS, with bearer tokens (never cookies, so no credentials
 * mode). Requests from any other origin get no CORS headers and the browser keeps their answers from the page.
 */
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'authorization, content-type, idempotency-key, x-request-id';
/** What the console reads from answers: the request id (quoted in problems), replays, retry delays, new locations. */
const EXPOSED_HEADERS = 'x-request-id, idempotent-replayed, retry-after, location';

/** `https://console.example.com, https://other.example` → the set of origins, as browsers send them. */
export function parseAllowedOrigins(raw: string | undefined): Set<string> {
  return new Set(
    (raw ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean)
      .map((origin) => new URL(origin).origin),
  );
}

export function applyCors(fastify: FastifyInstance, origins: ReadonlySet<string>) {
  if (origins.size === 0) return;
  fastify.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !origins.has(origin)) return;
    reply.header('access-control-allow-origin', origin).header('vary', 'origin').header('access-control-expose-headers', EXPOSED_HEADERS);
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return;
    // A preflight: answered here, before routing (no route answers OPTIONS).
    reply
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', '600');
    return reply.code(204).send();
  });
}
