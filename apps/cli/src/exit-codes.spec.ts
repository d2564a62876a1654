import { describe, expect, it } from '@jest/globals';
import { PlatformProblem } from '@social/sdk';
import { CliError, describeFailure } from './cli-error.js';
import { ExitCode, exitCodeForProblem } from './exit-codes.js';

const problem = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  new PlatformProblem({
    type: 'about:blank',
    title: 'Title',
    status,
    code,
    detail: 'What went wrong.',
    request_id: 'req-1',
    ...extra,
  } as never);

describe('exit codes', () => {
  it.each([
    [401, 'invalid_token', ExitCode.auth],
    [403, 'insufficient_role', ExitCode.auth],
    [403, 'workspace_forbidden', ExitCode.notFound],
    [404, 'not_found', ExitCode.notFound],
    [409, 'revision_conflict', ExitCode.invalid],
    [422, 'validation_failed', ExitCode.invalid],
    [413, 'body_too_large', ExitCode.invalid],
    [429, 'rate_limited', ExitCode.unavailable],
    [503, 'service_unavailable', ExitCode.unavailable],
    [500, 'internal_error', ExitCode.unavailable],
  ])('%i %s → %i', (status, code, exitCode) => {
    expect(exitCodeForProblem(status, code)).toBe(exitCode);
  });

  it("prints a problem's title, detail, each field error and the request id, never a stack", () => {
    const { exitCode, lines } = describeFailure(
      problem(422, 'validation_failed', { errors: [{ location: 'body.scheduled_at', message: 'must be in the future' }] }),
    );
    expect(exitCode).toBe(ExitCode.invalid);
    expect(lines).toEqual([
      'error: Title (422 validation_failed): What went wrong.',
      '  body.scheduled_at: must be in the future',
      '  request id: req-1',
    ]);
  });

  it('hints at signing in again on a 401 and at `workspace list` for an unknown workspace', () => {
    expect(describeFailure(problem(401, 'invalid_token')).lines.join('\n')).toMatch(/social login/);
    expect(describeFailure(problem(403, 'workspace_forbidden')).lines.join('\n')).toMatch(/social workspace list/);
  });

  it("an unexpected error is exit 1 with its message only; the CLI's own errors keep their code and details", () => {
    const unexpected = describeFailure(new TypeError('boom'));
    expect(unexpected).toEqual({ exitCode: ExitCode.failed, lines: ['error: boom'] });
    expect(describeFailure(new CliError('not signed in', ExitCode.auth, ['Run social login.']))).toEqual({
      exitCode: ExitCode.auth,
      lines: ['error: not signed in', '  Run social login.'],
    });
  });
});
