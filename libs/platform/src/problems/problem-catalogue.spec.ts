import { describe, expect, it } from '@jest/globals';
import { PROBLEM_CATALOGUE, statusesOf, type ProblemCode } from '@social/contracts';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Problem, problems, STATUS_TITLES } from './problem.js';

const codes = Object.keys(PROBLEM_CATALOGUE) as ProblemCode[];

/** `new Problem(409, 'some_code'` in the repository's production sources (the factories are typed by status). */
function literalProblems(): Array<{ file: string; status: number; code: string }> {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const files = execFileSync('git', ['ls-files', 'apps/*/src/*.ts', 'libs/*/src/*.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && !file.endsWith('spec.ts'));
  return files.flatMap((file) =>
    [...readFileSync(`${root}/${file}`, 'utf8').matchAll(/new Problem\(\s*(\d{3}),\s*'([a-z_]+)'/g)].map((match) => ({
      file,
      status: Number(match[1]),
      code: match[2],
    })),
  );
}

describe('the problem catalogue', () => {
  it('gives every code a status we have a title for, and a meaning', () => {
    for (const code of codes) {
      for (const status of statusesOf(code)) expect([code, STATUS_TITLES[status]]).toEqual([code, expect.any(String)]);
      expect(PROBLEM_CATALOGUE[code].meaning.length).toBeGreaterThan(10);
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    }
  });

  it('agrees with every problem built with a literal status and code', () => {
    const built = literalProblems();
    expect(built.length).toBeGreaterThan(10);
    const wrong = built.filter(({ status, code }) => !(code in PROBLEM_CATALOGUE) || !statusesOf(code as ProblemCode).includes(status));
    expect(wrong).toEqual([]);
  });

  it('builds the shared refusals with their catalogue status', () => {
    const built: Problem[] = [
      problems.invalidToken(),
      problems.workspaceTokenForbidden(),
      problems.adminRequired(),
      problems.notFound(),
      problems.revisionConflict('publication', 4, 3),
      problems.invalid('body.name', 'must be a string'),
      problems.tooManyRequests(2),
      problems.internal(),
      problems.timeout('Slow.'),
    ];
    for (const problem of built) expect(statusesOf(problem.code)).toContain(problem.status);
  });

  it('words a revision conflict once, with the current revision', () => {
    const problem = problems.revisionConflict('voice profile', 7, 5);
    expect(problem.toPayload()).toEqual({
      status: 409,
      code: 'revision_conflict',
      detail: 'The voice profile is at revision 7, not 5; read it again and reapply the change.',
      extensions: { current_revision: 7 },
    });
  });
});
