import { PlatformProblem, unwrap, type PlatformClient, type Schema } from '@social/sdk';
import type { CliContext } from '../context.js';
import { plural } from '../format.js';
import { IdempotencyKeys } from '../idempotency.js';
import { getPublication as get } from '../lookups.js';
import { watchPublication, type WatchOptions } from '../watch.js';

/** Scheduling, publishing and watching: the changes that start a delivery, and following it. */

type Publication = Schema<'PublicationResponse'>;

export interface Targets {
  accounts?: string[];
  socialSet?: string;
}

export async function schedule(
  context: CliContext,
  options: Targets & { at: string; watch?: boolean; idempotencyKey?: string },
  id: string,
) {
  const keys = new IdempotencyKeys(options.idempotencyKey);
  const client = context.client();
  const scheduled = await transition(
    context,
    client,
    id,
    (revision) =>
      client.POST(
        '/publications/{id}/schedule',
        withKey(keys, { params: { path: { id } }, body: { expected_revision: revision, scheduled_at: options.at, ...targetsOf(options) } }),
      ),
    (p) => p.status === 'scheduled' && p.scheduled_at === options.at,
  );
  return afterTransition(
    context,
    client,
    scheduled,
    options.watch,
    `Scheduled ${id} for ${scheduled.scheduled_at} (${plural(scheduled.renditions.length, 'rendition')}).`,
  );
}

export async function publish(context: CliContext, options: Targets & { watch?: boolean; idempotencyKey?: string }, id: string) {
  const keys = new IdempotencyKeys(options.idempotencyKey);
  const client = context.client();
  const publishing = await transition(
    context,
    client,
    id,
    (revision) =>
      client.POST(
        '/publications/{id}/publish-now',
        withKey(keys, { params: { path: { id } }, body: { expected_revision: revision, ...targetsOf(options) } }),
      ),
    (p) => ['publishing', 'published', 'failed'].includes(p.status),
  );
  return afterTransition(
    context,
    client,
    publishing,
    options.watch,
    `Publishing ${id} now (${plural(publishing.renditions.length, 'rendition')}).`,
  );
}

export async function watch(context: CliContext, options: { interval: number; timeout: number }, id: string): Promise<number> {
  return watchPublication(context, context.client(), id, { intervalMs: options.interval * 1000, timeoutMs: options.timeout * 1000 });
}

const WATCH_AFTER_TRANSITION: WatchOptions = { intervalMs: 2000, timeoutMs: 900_000 };

async function afterTransition(
  context: CliContext,
  client: PlatformClient,
  publication: Publication,
  thenWatch: boolean | undefined,
  summary: string,
) {
  if (thenWatch) {
    if (!context.json) context.print(summary);
    return watchPublication(context, client, publication.id, WATCH_AFTER_TRANSITION);
  }
  if (context.json) return context.printJson(publication);
  context.print(summary);
}

/**
 * A revisioned change (`expected_revision`) of the latest revision. Retried after a lost answer, it may meet its own
 * success as 409 `revision_conflict`: then the publication is read, and if it is where the change leads, that is the
 * answer (nothing was done twice: the revision guarded it).
 */
async function transition(
  context: CliContext,
  client: PlatformClient,
  id: string,
  call: (revision: number) => Promise<{ data?: Publication; error?: unknown; response: Response }>,
  landed: (publication: Publication) => boolean,
): Promise<Publication> {
  const before = await get(client, id);
  const retriesBefore = context.retries;
  try {
    return await unwrap(call(before.revision));
  } catch (error) {
    if (!(error instanceof PlatformProblem) || error.code !== 'revision_conflict' || context.retries === retriesBefore) throw error;
    const now = await get(client, id);
    if (now.revision === before.revision + 1 && landed(now)) return now;
    throw error;
  }
}

/** Every write carries an Idempotency-Key; where the API declares none, the header is sent all the same. */
export function withKey<T extends { params: object }>(keys: IdempotencyKeys, init: T): T & { headers: Record<string, string> } {
  return { ...init, headers: { 'Idempotency-Key': keys.main() } };
}

export function targetsOf(options: Targets): { account_ids?: string[]; social_set_id?: string } {
  if (options.socialSet) return { social_set_id: options.socialSet };
  if (options.accounts) return { account_ids: options.accounts };
  return {};
}
