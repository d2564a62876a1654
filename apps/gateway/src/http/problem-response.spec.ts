import { describe, expect, it } from '@jest/globals';
import { HttpException, NotFoundException } from '@nestjs/common';
import { Problem, problems } from '@social/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem, toProblem } from './problem-response.js';

const codeOf = (error: unknown) => {
  const { problem, unexpected } = toProblem(error);
  return `${problem.status} ${problem.code}${unexpected ? ' unexpected' : ''}`;
};

describe('toProblem', () => {
  it('passes a service problem on as it is', () => {
    const conflict = problems.conflict('revision_conflict', 'stale');
    expect(toProblem(conflict)).toEqual({ problem: conflict, unexpected: false });
  });

  it("maps Fastify's body and URL errors onto their problems", () => {
    expect(codeOf({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 })).toBe('415 unsupported_media_type');
    expect(codeOf({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).toBe('413 body_too_large');
    expect(codeOf({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY' })).toBe('400 malformed_body');
    expect(codeOf({ code: 'FST_ERR_MAX_PARAM_LENGTH' })).toBe('414 uri_too_long');
    expect(codeOf({ code: 'FST_ERR_BAD_URL' })).toBe('400 malformed_url');
    expect(codeOf({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' })).toBe('400 malformed_json');
    expect(codeOf(new SyntaxError('Unexpected token'))).toBe('400 malformed_json');
  });

  it("maps Nest's exceptions: an unknown route is 404, its re-thrown body errors keep their meaning", () => {
    expect(toProblem(new NotFoundException()).problem).toMatchObject({ status: 404, detail: 'No operation matches this method and path.' });
    expect(codeOf(new HttpException('bad', 400))).toBe('400 malformed_json');
    expect(codeOf(new HttpException('big', 413))).toBe('413 body_too_large');
    expect(codeOf(new HttpException('gone', 410))).toBe('410 bad_request');
  });

  it('keeps any other 4xx status, and makes everything else a logged 500 that reveals nothing', () => {
    expect(codeOf({ statusCode: 405 })).toBe('405 bad_request');
    expect(codeOf(new HttpException('down', 503))).toBe('500 internal_error unexpected');
    expect(codeOf(new TypeError('x is undefined'))).toBe('500 internal_error unexpected');
    expect(toProblem(new TypeError('x is undefined')).problem.detail).not.toContain('undefined');
  });
});

describe('sendProblem', () => {
  function send(problem: Problem, headers: Record<string, string> = { host: 'gateway:8080' }) {
    const sent: { status?: number; headers: Record<string, string>; body?: Record<string, unknown> } = { headers: {} };
    const reply = {
      header(name: string, value: string) {
        sent.headers[name] = value;
        return reply;
      },
      status(status: number) {
        sent.status = status;
        return reply;
      },
      send(body: string) {
        sent.body = JSON.parse(body) as Record<string, unknown>;
        return reply;
      },
    } as unknown as FastifyReply;
    sendProblem(reply, { headers, id: 'req-1', protocol: 'http' } as unknown as FastifyRequest, problem, 'https://api.example.com');
    return sent;
  }

  it('renders RFC 9457 problem+json with the request id and field errors', () => {
    const sent = send(problems.invalid('body.name', 'must not be empty', ''));
    expect(sent.status).toBe(422);
    expect(sent.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(sent.body).toEqual({
      $schema: 'https://api.example.com/api/v1/schemas/ErrorModel.json',
      type: 'about:blank',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'body.name must not be empty.',
      code: 'validation_failed',
      request_id: 'req-1',
      errors: [{ location: 'body.name', message: 'must not be empty', value: '' }],
    });
  });

  it('says when to retry, and how to authenticate', () => {
    expect(send(problems.tooManyRequests(2.2)).headers['retry-after']).toBe('3');
    const unauthorized = send(problems.invalidToken());
    expect(unauthorized.headers['www-authenticate']).toBe('Bearer');
    expect(unauthorized.headers['retry-after']).toBeUndefined();
  });

  it('spreads extensions into the body', () => {
    const sent = send(problems.revisionConflict('design', 4, 3));
    expect(sent.body).toMatchObject({ status: 409, code: 'revision_conflict', current_revision: 4 });
  });
});
