/**
 * The exit codes scripts may branch on (documented in the README's "Command line" section; never renumbered).
 * A refusal by the platform maps from its HTTP status; the rest are the CLI's own.
 */
export const ExitCode = {
  /** Done; for `watch`, every rendition went live. */
  ok: 0,
  /** The operation ran but failed: a delivery failed, `watch` timed out, an unexpected error. */
  failed: 1,
  /** The command line was wrong: unknown command or option, a missing or malformed value, no workspace chosen. */
  usage: 2,
  /** No credentials, or the platform refused them (401) or the role (403). */
  auth: 3,
  /** The publication, workspace or other resource does not exist or is not yours (404). */
  notFound: 4,
  /** The platform refused the change: a conflict (409) or invalid input (400, 413, 415, 422). */
  invalid: 5,
  /** The platform could not be reached or was unavailable (network errors, 429 and 5xx after retries). */
  unavailable: 6,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit code of a problem the platform answered; `workspace_forbidden` is the answer for an unknown workspace too. */
export function exitCodeForProblem(status: number, code: string): ExitCode {
  if (code === 'workspace_forbidden') return ExitCode.notFound;
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404 || status === 410) return ExitCode.notFound;
  if (status === 429 || status >= 500) return ExitCode.unavailable;
  if (status >= 400) return ExitCode.invalid;
  return ExitCode.failed;
}
