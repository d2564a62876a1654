import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { problems } from '@social/platform';
import { baseUrlOf } from '../http/base-url.js';
import { sendProblem } from '../http/problem-response.js';
import { buildOpenApi, jsonSchemaDocument } from './openapi.js';

/**
 * The Swagger UI page runs only its own files and cannot be framed (no clickjacking of a signed-in
 * user's browser): Swagger UI's own inline styles are the one allowance; it fetches /openapi.json.
 */
export const DOCS_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** `/openapi.json`, Swagger UI at `/docs`, and `/api/v1/schemas/<Name>.json`; none needs a token. */
export function mountDocs(app: NestFastifyApplication, publicBaseUrl: string | undefined) {
  const document = buildOpenApi(app);
  SwaggerModule.setup('docs', app, document, { raw: false, swaggerOptions: { url: '/openapi.json' } });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onSend', async (request, reply) => {
    if (request.url === '/docs' || request.url.startsWith('/docs/') || request.url.startsWith('/docs?')) {
      for (const [name, value] of Object.entries(DOCS_SECURITY_HEADERS)) reply.header(name, value);
    }
  });
  fastify.get('/openapi.json', async (request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    return { ...document, servers: [{ url: baseUrlOf(request, publicBaseUrl) }] };
  });
  fastify.get<{ Params: { file: string } }>('/api/v1/schemas/:file', async (request, reply) => {
    const name = request.params.file.replace(/\.json$/, '');
    const schema = jsonSchemaDocument(document, name, baseUrlOf(request, publicBaseUrl));
    if (!schema) return sendProblem(reply, request, problems.notFound(`No schema is named ${name}.`), publicBaseUrl);
    reply.header('content-type', 'application/schema+json; charset=utf-8');
    return schema;
  });
}
