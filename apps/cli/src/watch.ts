import type { PlatformClient, Schema } from '@social/sdk';
import { CliError } from './cli-error.js';
import { accountNames, getPublication } from './lookups.js';
import type { CliContext } from './context.js';
import { ExitCode } from './exit-codes.js';
import { plural, shortTime, resultOf } from './format.js';

type Publication = Schema<'PublicationResponse'>;
type Rendition = Schema<'Rendition'>;

const FINAL_STATUSES = new Set(['published', 'failed']);

/** Every rendition has ended, live or not (a publication without renditions has nothing to wait for). */
export function isSettled(publication: Publication): boolean {
  return publication.renditions.length > 0 && publication.renditions.every((r) => FINAL_STATUSES.has(r.status));
}

export const failedRenditions = (publication: Publication) => publication.renditions.filter((r) => r.status === 'failed');

/** What a person watches change: status, delivery state, attempt. */
const signatureOf = (r: Rendition) => `${r.status}|${r.delivery.state}|${r.delivery.current_attempt_number}|${r.error_code}`;

/** One rendition's line, e.g. `sandbox @alice  publishing  submitted (attempt 1)`. */
export function renditionLine(r: Rendition, accountNames: Map<string, string>): string {
  const who = accountNames.get(r.social_account_id) ?? r.social_account_id;
  const attempt = r.delivery.current_attempt_number > 1 ? `, attempt ${r.delivery.current_attempt_number}` : '';
  const retryAt = r.error_retry_at && !FINAL_STATUSES.has(r.status) ? `, retry at ${shortTime(r.error_retry_at)}` : '';
  const result = FINAL_STATUSES.has(r.status) || r.error_code ? resultOf(r) : '';
  return `${r.platform} ${who}  ${r.status}  ${r.delivery.state}${attempt}${retryAt}${result ? `  ${result}` : ''}`;
}

/** Shows a watch as it goes: `LineProgress` for logs and pipes, `TerminalProgress` redraws in place on a TTY. */
export interface Progress {
  update(publication: Publication): void;
  finish(publication: Publication): void;
}

/** One line per change, with the time: what a CI log or a pipe wants. */
export class LineProgress implements Progress {
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly accountNames: Map<string, string>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  update(publication: Publication): void {
    for (const rendition of publication.renditions) {
      const signature = signatureOf(rendition);
      if (this.seen.get(rendition.id) === signature) continue;
      this.seen.set(rendition.id, signature);
      this.write(`${this.now().toISOString()}  ${renditionLine(rendition, this.accountNames)}`);
    }
  }

  finish(): void {}
}

const due = (publication: Publication) => (publication.scheduled_at ? `, due ${shortTime(publication.scheduled_at)}` : '');

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A line per rendition, redrawn in place each poll, with a spinner on those still going. */
export class TerminalProgress implements Progress {
  private drawn = 0;
  private tick = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly accountNames: Map<string, string>,
  ) {}

  update(publication: Publication): void {
    this.tick++;
    this.draw(publication);
  }

  finish(publication: Publication): void {
    this.draw(publication);
  }

  private draw(publication: Publication): void {
    const lines = [
      `publication ${publication.id}: ${publication.status}${due(publication)}`,
      ...publication.renditions.map((r) => `${this.mark(r)} ${renditionLine(r, this.accountNames)}`),
    ];
    // Up over what was drawn before, then each line cleared and rewritten.
    const up = this.drawn ? `\x1b[${this.drawn}A` : '';
    this.write(up + lines.map((line) => `\x1b[2K${line}\n`).join(''));
    this.drawn = lines.length;
  }

  private mark(r: Rendition): string {
    if (r.status === 'published') return '✔';
    if (r.status === 'failed') return '✖';
    return SPINNER[this.tick % SPINNER.length];
  }
}

export interface WatchOptions {
  intervalMs: number;
  /** 0: no limit. */
  timeoutMs: number;
}

/**
 * Polls the publication until every rendition has ended, showing each change; answers the exit code: 0 when all
 * went live, 1 when one failed or the time ran out. With `--json`, prints the final publication only.
 */
export async function watchPublication(context: CliContext, client: PlatformClient, id: string, options: WatchOptions): Promise<ExitCode> {
  const deadline = options.timeoutMs ? Date.now() + options.timeoutMs : Infinity;
  let publication = await getPublication(client, id);
  if (!publication.renditions.length) {
    throw new CliError(`publication ${id} is ${publication.status} and has no renditions to watch`, ExitCode.invalid, [
      'Schedule or publish it first (`social publications schedule|publish`).',
    ]);
  }
  const names = await accountNames(client, publication.workspace_id);
  const write = (text: string) => context.io.stdout.write(text);
  const progress: Progress | undefined = context.json
    ? undefined
    : context.io.stdout.isTTY
      ? new TerminalProgress(write, names)
      : new LineProgress((line) => write(`${line}\n`), names);
  for (;;) {
    progress?.update(publication);
    if (isSettled(publication)) break;
    if (Date.now() + options.intervalMs > deadline) {
      progress?.finish(publication);
      throw new CliError(`publication ${id} is still ${publication.status} after ${options.timeoutMs / 1000} s`, ExitCode.failed, [
        'Watch on with `social publications watch`.',
      ]);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    publication = await getPublication(client, id);
  }
  progress?.finish(publication);
  const failed = failedRenditions(publication);
  if (context.json) context.printJson(publication);
  else if (failed.length) context.print(`Failed: ${failed.length} of ${plural(publication.renditions.length, 'rendition')}.`);
  else context.print(`All live (${plural(publication.renditions.length, 'rendition')}).`);
  return failed.length ? ExitCode.failed : ExitCode.ok;
}
