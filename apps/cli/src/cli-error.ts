import { PlatformProblem } from '@social/sdk';
import { ExitCode, exitCodeForProblem } from './exit-codes.js';

/** A failure the CLI explains itself: its message goes to stderr as is, its exit code to the shell. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** Further lines under the message (hints, field errors). */
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string, ...details: string[]) => new CliError(message, ExitCode.usage, details);

/** What to print on stderr and the exit code, for anything a command threw. Never a stack trace. */
export function describeFailure(error: unknown): { exitCode: ExitCode; lines: string[] } {
  if (error instanceof CliError) return { exitCode: error.exitCode, lines: [`error: ${error.message}`, ...indent(error.details)] };
  if (error instanceof PlatformProblem) return describeProblem(error);
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: ExitCode.failed, lines: [`error: ${message}`] };
}

function describeProblem(problem: PlatformProblem): { exitCode: ExitCode; lines: string[] } {
  const exitCode = exitCodeForProblem(problem.status, problem.code);
  const lines = [`error: ${problem.title || problem.status} (${problem.status} ${problem.code}): ${problem.detail}`];
  for (const field of problem.errors) lines.push(`  ${field.location}: ${field.message}`);
  const hint = hintFor(problem);
  if (hint) lines.push(`  ${hint}`);
  if (problem.requestId) lines.push(`  request id: ${problem.requestId}`);
  return { exitCode, lines };
}

/** What a person can do next, for the refusals a CLI user meets most. */
function hintFor(problem: PlatformProblem): string {
  if (problem.code === 'workspace_forbidden') return 'No such workspace among yours: `social workspace list` shows them.';
  if (problem.status === 401) return 'Sign in again with `social login`, or pass a valid API token (--token or SOCIAL_TOKEN).';
  if (problem.code === 'revision_conflict')
    return 'The publication changed meanwhile: run the command again to act on its latest revision.';
  return '';
}

const indent = (lines: string[]) => lines.map((line) => `  ${line}`);
