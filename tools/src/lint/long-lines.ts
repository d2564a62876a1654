/**
 * `node tools/dist/lint/long-lines.js [skip...]`: every line of the tracked .ts, .tsx, .mjs and .js files longer than
 * 140 characters, as `file:line (N chars)`, and exit 1 when there is one. Prettier wraps code at 140 columns but
 * leaves strings, template literals and comments as they are; this catches those. Each `skip` is a path prefix
 * (`apps/gateway/src`) or a glob (`*` and `?` within one path segment, `**` across any number of them; quoted so
 * the shell leaves it alone). Generated files (libs/sdk/src/generated) are never checked.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Prettier's printWidth (.prettierrc.json). */
export const MAX_LINE_LENGTH = 140;

const CHECKED_EXTENSIONS = ['.ts', '.tsx', '.mjs', '.js'];
const GENERATED = ['libs/sdk/src/generated'];

export interface LongLine {
  /** 1-based, as editors count. */
  line: number;
  /** In characters (code points), as `awk 'length > 140'` counts them in a UTF-8 locale. */
  length: number;
}

/** The lines of `text` longer than `limit` characters. */
export function longLines(text: string, limit = MAX_LINE_LENGTH): LongLine[] {
  const found: LongLine[] = [];
  text.split('\n').forEach((raw, index) => {
    const length = [...raw.replace(/\r$/, '')].length;
    if (length > limit) found.push({ line: index + 1, length });
  });
  return found;
}

/** `*` and `?` stay within one path segment, `**` spans any number of them. */
function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (glob.startsWith('**/', i)) {
      pattern += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      pattern += '.*';
      i += 1;
    } else if (char === '*') pattern += '[^/]*';
    else if (char === '?') pattern += '[^/]';
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** A skip without `*` or `?` is a prefix: the path itself or anything under it. */
export function matchesSkip(path: string, skip: string): boolean {
  if (/[*?]/.test(skip)) return globToRegExp(skip).test(path);
  const prefix = skip.replace(/\/+$/, '');
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Whether the check reads `path` (relative to the repository root). */
export function isChecked(path: string, skips: readonly string[] = []): boolean {
  if (!CHECKED_EXTENSIONS.some((extension) => path.endsWith(extension))) return false;
  return ![...GENERATED, ...skips].some((skip) => matchesSkip(path, skip));
}

function trackedFiles(): string[] {
  const listing = execFileSync('git', ['ls-files', '-z', '--', ...CHECKED_EXTENSIONS.map((extension) => `*${extension}`)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listing.split('\0').filter(Boolean);
}

function readTracked(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    // Tracked but deleted in the working tree: nothing to check.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function main(skips: string[]): number {
  let count = 0;
  for (const path of trackedFiles().filter((file) => isChecked(file, skips))) {
    const text = readTracked(path);
    if (text === null) continue;
    for (const { line, length } of longLines(text)) {
      process.stdout.write(`${path}:${line} (${length} chars)\n`);
      count += 1;
    }
  }
  if (count > 0) process.stderr.write(`long-lines: ${count} line(s) over ${MAX_LINE_LENGTH} characters\n`);
  return count > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(main(process.argv.slice(2)));
}
