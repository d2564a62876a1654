import { describe, expect, it } from '@jest/globals';
import { CreateVideoProjectRequest, RegisterRequest, UpdatePreferencesRequest, videoDocumentError } from '@social/contracts';
import { Problem } from '../problems/problem.js';
import { validateInput, validateInputWithDocument } from './validate.js';

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
    const problem = refusal(() =>
      validateInput(RegisterRequest, { email: 'a@example.com', password: 'twelve chars!', username: null }, 'body'),
    );
    expect(problem.options.errors).toEqual([{ location: 'body.username', message: 'must not be null', value: null }]);
  });

  it('refuses NUL characters anywhere in the body, naming where', () => {
    const problem = refusal(() => validateInput(UpdatePreferencesRequest, { preferences: { a: { b: ['ok', 'x\u0000'] } } }, 'body'));
    expect(problem.options.errors).toEqual([
      { location: 'body.preferences.a.b[1]', message: 'must not contain NUL characters or unpaired surrogates' },
    ]);
  });

  it('refuses unpaired surrogates (jsonb cannot store them) but keeps proper pairs', () => {
    const lone = refusal(() => validateInput(UpdatePreferencesRequest, { preferences: { a: { b: '\ud800' } } }, 'body'));
    expect(lone.options.errors).toEqual([
      { location: 'body.preferences.a.b', message: 'must not contain NUL characters or unpaired surrogates' },
    ]);
    const key = refusal(() => validateInput(UpdatePreferencesRequest, { preferences: { ['x\udc00']: {} } }, 'body'));
    expect(key.options.errors?.[0].location).toBe('body.preferences.x\\udc00');
    expect(() => validateInput(UpdatePreferencesRequest, { preferences: {}, digest_timezone: '😀' }, 'body')).not.toThrow(/surrogates/);
  });

  it('refuses non-objects at the location given', () => {
    const problem = refusal(() => validateInput(UpdatePreferencesRequest, [1], 'body.preferences.x'));
    expect(problem.options.errors).toEqual([{ location: 'body.preferences.x', message: 'must be a JSON object' }]);
  });
});

describe('validateInputWithDocument', () => {
  const WORKSPACE = '0192d6a8-1c5e-7f00-8000-0000000000aa';

  it('checks the members, and hands the document back as received (the same object, unknown members and all)', () => {
    const document = { version: 1, timeline: { tracks: [{ anything: [{ at: { any: 'depth' } }] }] } };
    const input = validateInputWithDocument(
      CreateVideoProjectRequest,
      { workspace_id: WORKSPACE, name: 'Film', document },
      'body',
      videoDocumentError,
    );
    expect(input).toBeInstanceOf(CreateVideoProjectRequest);
    expect(input.document).toBe(document);
  });

  it("names every bad location in one problem, the document's among the members'", () => {
    const problem = refusal(() =>
      validateInputWithDocument(CreateVideoProjectRequest, { workspace_id: 'x', document: [1], extra: 1 }, 'body', videoDocumentError),
    );
    expect(problem.status).toBe(422);
    expect(problem.options.errors?.map((e) => e.location).sort()).toEqual([
      'body.document',
      'body.extra',
      'body.name',
      'body.workspace_id',
    ]);
    const alone = refusal(() =>
      validateInputWithDocument(
        CreateVideoProjectRequest,
        { workspace_id: WORKSPACE, name: 'F', document: 'text' },
        'body',
        videoDocumentError,
      ),
    );
    expect(alone.options.errors).toEqual([{ location: 'body.document', message: 'must be a JSON object' }]);
  });
});
