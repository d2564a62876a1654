import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { PlatformProblem, unwrap, type Schema } from '@social/sdk';
import { CliError, usageError } from '../cli-error.js';
import type { CliContext } from '../context.js';
import type { Actions } from '../cli.js';
import { ExitCode } from '../exit-codes.js';
import { accountNames, getPublication as get } from '../lookups.js';
import { plural, publicationDetail, publicationsTable, previewText } from '../format.js';
import { IdempotencyKeys } from '../idempotency.js';
import { publish, schedule, targetsOf, watch, withKey, type Targets } from './delivery.js';
import { parseLimit, parseList, parseSeconds, parseTime } from '../options.js';
import { uploadFile } from '../upload.js';

type Publication = Schema<'PublicationResponse'>;
type MediaRole = Schema<'AttachedMediaInput'>['role'];

const PROFILES = ['short_text', 'thread', 'link_share', 'image_post', 'carousel', 'story', 'short_video', 'long_video'];
const STATUSES = ['draft', 'ready', 'scheduled', 'publishing', 'published', 'failed'];

export function registerPublicationCommands(program: Command, act: Actions): void {
  const publications = program
    .command('publications')
    .alias('pub')
    .description('list, create, attach media, preview, schedule, publish, watch');
  const keyOption = () => new Option('--idempotency-key <key>', 'run again with the same key to be sure nothing is created twice');
  const targetOptions = (command: Command) =>
    command
      .addOption(new Option('--accounts <ids>', 'target accounts, comma-separated (see `social accounts list`)').argParser(parseList))
      .addOption(new Option('--social-set <id>', "a social set's accounts as the targets").conflicts('accounts'));

  publications
    .command('list')
    .description("the workspace's publications, newest first")
    .addOption(new Option('--status <status>', 'only this status').choices(STATUSES))
    .option('--limit <n>', 'how many (1–100)', parseLimit, 50)
    .addOption(new Option('--cursor <cursor>', 'the page after this one (printed under the table)').conflicts('all'))
    .option('--all', 'every page, not just the first')
    .action(act(list));

  publications.command('show').description('one publication, with its renditions').argument('<id>').action(act(show));

  publications
    .command('create')
    .description('a draft, from text or a file (- reads stdin)')
    .addOption(new Option('--text <text>', 'the text').conflicts('file'))
    .addOption(new Option('--file <path>', 'read the text from this file'))
    .option('--title <title>', 'a title (for networks whose posts have one, e.g. YouTube)', '')
    .addOption(new Option('--profile <profile>', 'the content profile').choices(PROFILES).default('short_text'))
    .addOption(keyOption())
    .action(act(create));

  publications
    .command('attach')
    .description('upload files to the media library and attach them, after the media already attached')
    .argument('<id>', 'the publication')
    .argument('<files...>', 'images or videos')
    .option('--alt <text>', 'alt text for every file attached now')
    .addOption(keyOption())
    .action(act(attach));

  targetOptions(
    publications.command('preview').description('what each network would receive, and what breaks its rules').argument('<id>'),
  ).action(act(preview));

  targetOptions(
    publications
      .command('schedule')
      .description('schedule (or reschedule) for a time')
      .argument('<id>')
      .requiredOption('--at <time>', 'when, RFC 3339 (e.g. 2026-05-01T09:00:00Z)', parseTime),
  )
    .option('--watch', 'then watch the delivery until it ends')
    .addOption(keyOption())
    .action(act(schedule));

  targetOptions(publications.command('publish').description('publish now').argument('<id>'))
    .option('--watch', 'then watch the delivery until it ends')
    .addOption(keyOption())
    .action(act(publish));

  publications
    .command('watch')
    .description('follow the delivery until every rendition is live or failed (exit 0: all live, 1: one failed)')
    .argument('<id>')
    .option('--interval <seconds>', 'between polls', parseSeconds, 2)
    .option('--timeout <seconds>', 'give up after (0: never)', parseSeconds, 900)
    .action(act(watch));
}

interface ListOptions {
  status?: Publication['status'];
  limit: number;
  cursor?: string;
  all?: boolean;
}

async function list(context: CliContext, options: ListOptions): Promise<void> {
  const client = context.client();
  const query = { workspace_id: context.workspaceId(), limit: options.limit, status: options.status, cursor: options.cursor };
  const page = await unwrap(client.GET('/publications', { params: { query } }));
  // --all follows the cursors to the last page and answers them as one list (its next_cursor "").
  while (options.all && page.next_cursor) {
    const next = await unwrap(client.GET('/publications', { params: { query: { ...query, cursor: page.next_cursor } } }));
    page.publications.push(...next.publications);
    page.next_cursor = next.next_cursor;
  }
  if (context.json) return context.printJson(page);
  context.print(page.publications.length ? publicationsTable(page.publications) : 'No publications.');
  if (page.next_cursor) context.print(`\nMore: --cursor ${page.next_cursor}`);
}

async function show(context: CliContext, _options: unknown, id: string): Promise<void> {
  const client = context.client();
  const publication = await get(client, id);
  if (context.json) return context.printJson(publication);
  context.print(publicationDetail(publication, await accountNames(client, publication.workspace_id)));
}

async function create(
  context: CliContext,
  options: { text?: string; file?: string; title: string; profile: string; idempotencyKey?: string },
) {
  if (options.text === undefined && options.file === undefined) throw usageError('give the text with --text or --file');
  const text = options.text ?? (await readText(options.file!));
  const keys = new IdempotencyKeys(options.idempotencyKey);
  const workspaceId = context.workspaceId();
  const { data, response, error } = await context.client().POST('/publications', {
    params: { header: { 'Idempotency-Key': keys.main() } },
    body: {
      workspace_id: workspaceId,
      content_profile: options.profile as Publication['content_profile'],
      title: options.title,
      source_text: text,
    },
  });
  if (!response.ok || !data) throw PlatformProblem.fromResponse(response, error);
  if (context.json) return context.printJson(data);
  const replayed = response.headers.get('idempotent-replayed') === 'true';
  context.print(`${replayed ? 'Already created (same idempotency key)' : 'Created'} draft ${data.id} (revision ${data.revision}).`);
}

async function attach(context: CliContext, options: { alt?: string; idempotencyKey?: string }, id: string, files: string[]) {
  const client = context.client();
  const keys = new IdempotencyKeys(options.idempotencyKey);
  const publication = await get(client, id);
  const attached: string[] = [];
  for (const [index, file] of files.entries()) {
    const item = await uploadFile(context, client, publication.workspace_id, file, keys.step(`upload:${index}`));
    context.note(`uploaded ${file} → media ${item.id}${'deduped' in item ? ' (already in the library)' : ''}`);
    attached.push(item.id);
  }
  // After what is attached already; a file attached before (a retried command) is not attached twice.
  const media = [
    ...publication.media.map((m) => ({ media_id: m.id, alt_text: m.alt_text, role: m.role as MediaRole })),
    ...attached
      .filter((mediaId) => !publication.media.some((m) => m.id === mediaId))
      .map((mediaId) => ({ media_id: mediaId, alt_text: options.alt ?? '', role: 'attachment' as const })),
  ];
  const updated = await unwrap(
    client.PATCH(
      '/publications/{id}',
      withKey(keys, { params: { path: { id } }, body: { expected_revision: publication.revision, media } }),
    ),
  );
  if (context.json) return context.printJson(updated);
  context.print(`Attached ${plural(files.length, 'file')} to ${id} (now ${updated.media.length} media, revision ${updated.revision}).`);
}

async function preview(context: CliContext, options: Targets, id: string): Promise<void> {
  const client = context.client();
  const answer = await unwrap(client.POST('/publications/{id}/preview', { params: { path: { id } }, body: targetsOf(options) }));
  if (context.json) return context.printJson(answer);
  const publication = await get(client, id);
  context.print(previewText(answer, await accountNames(client, publication.workspace_id)));
}

async function readText(file: string): Promise<string> {
  try {
    return file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`, ExitCode.usage);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
