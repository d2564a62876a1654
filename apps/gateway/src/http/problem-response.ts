import { HttpException } from '@nestjs/common';
import { Problem, problems, STATUS_TITLES } from '@social/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { baseUrlOf, schemaUrl } from './base-url.js';

/** Fastify's own errors (body parsing, limits) carry a code and a status. */
interface FastifyError {
  code?: string;
  statusCode?: number;
}

const FASTIFY_PROBLEMS: Record<string, () => Problem> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new Problem(415, 'unsupported_media_type', 'Request bodies must be sent as application/json.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new Problem(413, 'body_too_large', 'The request body is larger than allowed.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => problems.badRequest('malformed_body', 'The body is empty although Content-Type is application/json.'),
  FST_ERR_MAX_PARAM_LENGTH: () => new Problem(414, 'uri_too_long', 'A path segment is longer than any identifier we issue.'),
  FST_ERR_BAD_URL: () => problems.badRequest('malformed_url', 'The request path is not a valid URL.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => problems.badRequest('malformed_body', 'The Content-Length does not match the body.'),
};

/** Nest re-throws Fastify's body-parsing failures as HttpExceptions of these statuses. */
const HTTP_EXCEPTION_PROBLEMS: Record<number, () => Problem> = {
  400: () => problems.badRequest('malformed_json', 'The request body is not valid JSON.'),
  413: FASTIFY_PROBLEMS.FST_ERR_CTP_BODY_TOO_LARGE,
  415: FASTIFY_PROBLEMS.FST_ERR_CTP_INVALID_MEDIA_TYPE,
};

/** Maps anything thrown while serving a request onto a problem; unknown faults are 500. */
export function toProblem(error: unknown): { problem: Problem; unexpected: boolean } {
  if (error instanceof Problem) return { problem: error, unexpected: false };
  const fastify = error as FastifyError;
  if (fastify?.code && FASTIFY_PROBLEMS[fastify.code]) return { problem: FASTIFY_PROBLEMS[fastify.code](), unexpected: false };
  if (error instanceof SyntaxError || fastify?.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { problem: problems.badRequest('malformed_json', 'The request body is not valid JSON.'), unexpected: false };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404) return { problem: problems.notFound('No operation matches this method and path.'), unexpected: false };
    if (HTTP_EXCEPTION_PROBLEMS[status]) return { problem: HTTP_EXCEPTION_PROBLEMS[status](), unexpected: false };
    if (status < 500) return { problem: new Problem(status, 'bad_request', error.message), unexpected: false };
  }
  if (typeof fastify?.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    return {
      problem: new Problem(fastify.statusCode, 'bad_request', STATUS_TITLES[fastify.statusCode] ?? 'Bad request.'),
      unexpected: false,
    };
  }
  return { problem: problems.internal(), unexpected: true };
}

/** Renders a problem as RFC 9457 `application/problem+json` (docs/decisions.md). */
export function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: Problem, publicBaseUrl: string | undefined) {
  const { status, code, detail, options } = problem;
  const body: Record<string, unknown> = {
    $schema: schemaUrl(baseUrlOf(request, publicBaseUrl), 'ErrorModel'),
    type: 'about:blank',
    title: STATUS_TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    request_id: request.id,
  };
  if (options.errors) body.errors = options.errors;
  if (options.extensions) Object.assign(body, options.extensions);
  if (options.retryAfter) reply.header('retry-after', String(options.retryAfter));
  if (status === 401) reply.header('www-authenticate', 'Bearer');
  reply.status(status).header('content-type', 'application/problem+json; charset=utf-8').send(JSON.stringify(body));
}
