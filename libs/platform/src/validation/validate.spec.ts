import { describe, expect, it } from '@jest/globals';
import { RegisterRequest, UpdatePreferencesRequest } from '@social/contracts';
import { Problem } from '../problems/problem.js';
import { validateInput } from './validate.js';

function refusal(run: () => unknown): Problem {
  try {
    run();
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  throw new Error('expected a problem');
}

describe('validateInput', () => {
  it('returns a typed instance and ignores a $schema member', () => {
    const input = validateInput(RegisterRequest, { $schema: 'x', email: 'a@example.com', password: 'twelve chars!' }, 'body');
    expect(input).toBeInstanceOf(RegisterRequest);
    expect(input).not.toHaveProperty('$schema');
  });

  it('names each invalid member, and unknown members as unexpected', () => {
    const problem = refusal(() => validateInput(RegisterRequest, { email: 'nope', password: 1, extra: true }, 'body'));
    expect(problem.status).toBe(422);
    expect(problem.code).toBe('validation_failed');
    expect(problem.options.errors).toEqual(
      expect.arrayContaining([
        { location: 'body.email', message: 'must be an email address', value: 'nope' },
        expect.objectContaining({ location: 'body.password', value: 1 }),
        { location: 'body.extra', message: 'unexpected property' },
      ]),
    );
  });

  it('reports a missing member once, as required', () => {
    const problem = refusal(() => validateInput(RegisterRequest, { email: 'a@example.com' }, 'body'));
    expect(problem.options.errors).toEqual([{ location: 'body.password', message: 'is required' }]);
  });

  it('refuses null for an optional member (a string is never null)', () => {
    const problem = refusal(() => validateInput(RegisterRequest, { email: 'a@example.com', password: 'twelve chars!', username: null }, 'body'));
    expect(problem.options.errors).toEqual([{ location: 'body.username', message: 'must not be null', value: null }]);
  });

  it('refuses NUL characters anywhere in the body, naming where', () => {
    const problem = refusal(() => validateInput(UpdatePreferencesRequest, { preferences: { a: { b: ['ok', 'x\u0000'] } } }, 'body'));
    expect(problem.options.errors).toEqual([{ location: 'body.preferences.a.b[1]', message: 'must not contain NUL characters or unpaired surrogates' }]);
  });

  it('refuses unpaired surrogates (jsonb cannot store them) but keeps proper pairs', () => {
    const lone = refusal(() => validateInput(UpdatePreferencesRequest, { preferences: { a: { b: '\ud800' } } }, 'body'));
    expect(lone.options.errors).toEqual([{ location: 'body.preferences.a.b', message: 'must not contain NUL characters or unpaired surrogates' }]);
    const key = refusal(() => validateInput(UpdatePreferencesRequest, { preferences: { ['x\udc00']: {} } }, 'body'));
    expect(key.options.errors?.[0].location).toBe('body.preferences.x\\udc00');
    expect(() => validateInput(UpdatePreferencesRequest, { preferences: {}, digest_timezone: '😀' }, 'body')).not.toThrow(/surrogates/);
  });

  it('refuses non-objects at the location given', () => {
    const problem = refusal(() => validateInput(UpdatePreferencesRequest, [1], 'body.preferences.x'));
    expect(problem.options.errors).toEqual([{ location: 'body.preferences.x', message: 'must be a JSON object' }]);
  });
});
