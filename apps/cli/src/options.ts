import { InvalidArgumentError } from 'commander';

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i;

/** `--at`: an RFC 3339 time with its offset, sent as UTC with milliseconds as the API writes times. */
export function parseTime(value: string): string {
  const at = Date.parse(value);
  if (!RFC3339.test(value) || Number.isNaN(at)) {
    throw new InvalidArgumentError('Expected an RFC 3339 time with its offset, e.g. 2026-05-01T09:00:00Z or 2026-05-01T11:00:00+02:00.');
  }
  return new Date(at).toISOString();
}

/** `--accounts a,b` (or the option repeated): the ids, in order, without blanks or repeats. */
export function parseList(value: string, previous: string[] = []): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (!items.length) throw new InvalidArgumentError('Expected one or more ids, separated by commas.');
  return [...new Set([...previous, ...items])];
}

/** Seconds, e.g. `--interval 0.5`. */
export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!value.trim() || !Number.isFinite(seconds) || seconds < 0)
    throw new InvalidArgumentError('Expected a number of seconds (0 or more).');
  return seconds;
}

/** `--limit`: 1–100, as the API's lists take. */
export function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new InvalidArgumentError('Expected a whole number from 1 to 100.');
  return limit;
}
