/**
 * Lint (after `npm run build`): the OpenAPI document and the message contracts must not break a client or another
 * service against the last commit, unless the change is listed in libs/contracts/intended-breaking-changes.md.
 * The baseline is HEAD's copy when the working copy differs from it, else the copy before HEAD (the last commit's own
 * change). In CI the generated files must also be the committed ones.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { messageBreakingChanges, openApiBreakingChanges } from './breaking-changes.js';
import { INTENDED_BREAKING_CHANGES, MESSAGE_CONTRACTS, OPENAPI_DOCUMENT, PROBLEM_LIST } from './generated-files.js';

const git = (...args: string[]): string | null => {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return null;
  }
};

/** The committed copy to compare with: HEAD's if the working copy moved on, else HEAD~1's; null when there is none. */
function baseline(path: string, working: string): string | null {
  const head = git('show', `HEAD:${path}`);
  if (head !== null && head !== working) return head;
  return git('show', `HEAD~1:${path}`);
}

const problems: string[] = [];
if (process.env.CI) {
  for (const path of [OPENAPI_DOCUMENT, MESSAGE_CONTRACTS, PROBLEM_LIST])
    if (git('diff', '--quiet', 'HEAD', '--', path) === null)
      problems.push(`${path} differs from the committed one: commit what npm run build wrote`);
}

const intended = readFileSync(INTENDED_BREAKING_CHANGES, 'utf8');
const breaking: string[] = [];
for (const [path, compare] of [
  [OPENAPI_DOCUMENT, openApiBreakingChanges],
  [MESSAGE_CONTRACTS, messageBreakingChanges],
] as const) {
  const working = readFileSync(path, 'utf8');
  const before = baseline(path, working);
  if (before === null) continue;
  breaking.push(...compare(JSON.parse(before), JSON.parse(working)).filter((change) => !intended.includes(change)));
}
if (breaking.length > 0)
  problems.push(
    `breaking changes to the published contracts (list each in ${INTENDED_BREAKING_CHANGES} if intended):\n` +
      breaking.map((change) => `  ${change}`).join('\n'),
  );

if (problems.length > 0) {
  process.stderr.write(`contracts: ${problems.join('\n')}\n`);
  process.exit(1);
}
