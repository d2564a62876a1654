/**
 * kill -9 of a publishing replica in the middle of delivering a batch to the sandbox network: every rendition must
 * reach it exactly once (docs/decisions.md). The sandbox keeps each post it accepted in `publishing.sandbox_posts` under
 * the rendition's id (its marker), with no unique index, so a duplicate delivery shows as a second row.
 */
import pg from 'pg';
import type { FaultEnvironment } from './environment.js';
import { callApi, expectStatus, type Fault, type PlatformProcesses, seconds, sleep, type Tenant, until } from './fault.js';

/** Publications in the batch, each to both sandbox accounts. */
const PUBLICATIONS = 24;
const ACCOUNTS = 2;
/** `[sandbox:slow]` holds each network call 2 s: a replica is always killed with calls in flight. */
const SLOW_MARKER = '[sandbox:slow]';
const MID_DELIVERY_LIMIT_MS = 30_000;
const SETTLE_LIMIT_MS = 90_000;

interface Counts {
  renditions: number;
  published: number;
  failed: number;
  unsettled: number;
  missing: number;
  duplicated: number;
  interrupted: number;
  /** When the last attempt of the batch finished (epoch ms), 0 when none did. */
  lastFinished: number;
}

export function deliveryKill(env: FaultEnvironment, processes: PlatformProcesses, tenant: Tenant): Fault {
  const publicationIds: string[] = [];
  let killedAt = 0;
  let heldByVictim = 0;
  return {
    name: 'kill -9 publishing replica mid-delivery',
    inject: async () => {
      const token = tenant.session.token;
      const accountIds: string[] = [];
      for (let i = 0; i < ACCOUNTS; i++) {
        const account = await expectStatus<{ id: string }>(
          201,
          callApi(env.baseUrl, 'POST', '/social-accounts/connect', {
            token,
            body: { workspace_id: tenant.workspaceId, provider: 'sandbox', username: `faults_${Date.now().toString(36)}_${i}` },
          }),
          'connecting a sandbox account',
        );
        accountIds.push(account.id);
      }
      for (let i = 0; i < PUBLICATIONS; i++) {
        const publication = await expectStatus<{ id: string }>(
          201,
          callApi(env.baseUrl, 'POST', '/publications', {
            token,
            body: {
              workspace_id: tenant.workspaceId,
              content_profile: 'short_text',
              title: `Delivery ${i}`,
              source_text: `Delivered once ${i} ${SLOW_MARKER}`,
            },
          }),
          'creating a publication',
        );
        publicationIds.push(publication.id);
      }
      for (const id of publicationIds) {
        await expectStatus(
          200,
          callApi(env.baseUrl, 'POST', `/publications/${id}/publish-now`, {
            token,
            body: { expected_revision: 1, account_ids: accountIds },
          }),
          'publish-now',
        );
      }
      // The victim: a publishing replica with calls of the batch at the network (attempts committed as submitted).
      const db = new pg.Client({ connectionString: env.postgres.url });
      await db.connect();
      let victim: number | undefined;
      try {
        const live = new Set(processes.pidsOf('publishing'));
        const found = await until(async () => {
          const { rows } = await db.query<{ lease_owner: string; n: number }>(
            `SELECT lease_owner, count(*)::int AS n FROM publishing.renditions
              WHERE publication_id = ANY($1::uuid[]) AND delivery_state = 'submitted' AND lease_owner <> '' GROUP BY lease_owner`,
            [publicationIds],
          );
          const held = new Map<number, number>();
          for (const row of rows) {
            const pid = Number(row.lease_owner.split(':')[1]);
            if (live.has(pid)) held.set(pid, (held.get(pid) ?? 0) + row.n);
          }
          const busiest = [...held].sort((a, b) => b[1] - a[1])[0];
          if (busiest) [victim, heldByVictim] = busiest;
          return busiest !== undefined;
        }, MID_DELIVERY_LIMIT_MS);
        if (!found || victim === undefined)
          throw new Error(`no publishing replica was delivering the batch within ${seconds(MID_DELIVERY_LIMIT_MS)}`);
      } finally {
        await db.end();
      }
      await processes.kill(victim);
      killedAt = Date.now();
      // A supervisor restarts it after a moment.
      await sleep(1_000);
      await processes.start('publishing', 'publishing (replacement after the delivery kill)');
    },
    verify: async () => {
      if (publicationIds.length === 0) return { problems: ['no batch was published'], figures: '' };
      const db = new pg.Client({ connectionString: env.postgres.url });
      await db.connect();
      try {
        let counts = await countDeliveries(db, publicationIds);
        await until(async () => {
          counts = await countDeliveries(db, publicationIds);
          return counts.unsettled === 0;
        }, SETTLE_LIMIT_MS);
        const settledAfter = counts.lastFinished - killedAt;
        const problems: string[] = [];
        if (counts.renditions !== PUBLICATIONS * ACCOUNTS)
          problems.push(`${counts.renditions} renditions for ${PUBLICATIONS * ACCOUNTS} expected`);
        if (counts.unsettled) problems.push(`${counts.unsettled} renditions not settled ${seconds(SETTLE_LIMIT_MS)} after the kill`);
        if (counts.failed) problems.push(`${counts.failed} renditions failed`);
        if (counts.missing) problems.push(`${counts.missing} renditions published with no sandbox post, or never published`);
        if (counts.duplicated) problems.push(`${counts.duplicated} renditions posted more than once`);
        if (counts.interrupted === 0) problems.push('no attempt was interrupted: the kill missed the network calls');
        const figures =
          `delivery: ${counts.renditions} renditions, ${heldByVictim} at the network on the killed replica, ` +
          `${counts.published} published (last ${seconds(settledAfter)} after the kill), ` +
          `${counts.interrupted} interrupted attempts reconciled; ` +
          `sandbox posts ${counts.duplicated} duplicated, ${counts.missing} missing`;
        return { problems, figures };
      } finally {
        await db.end();
      }
    },
  };
}

/** The batch's renditions by state, and what the sandbox recorded for each (posts per rendition id). */
async function countDeliveries(db: pg.Client, publicationIds: string[]): Promise<Counts> {
  const { rows } = await db.query<Counts>(
    `WITH batch AS (
       SELECT r.id, r.status, (SELECT count(*)::int FROM publishing.sandbox_posts s WHERE s.marker = r.id::text) AS posts
         FROM publishing.renditions r WHERE r.publication_id = ANY($1::uuid[]))
     SELECT count(*)::int AS renditions,
            count(*) FILTER (WHERE status = 'published')::int AS published,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status NOT IN ('published', 'failed'))::int AS unsettled,
            count(*) FILTER (WHERE posts = 0)::int AS missing,
            count(*) FILTER (WHERE posts > 1)::int AS duplicated,
            (SELECT count(*)::int FROM publishing.delivery_attempts a
              WHERE a.publication_id = ANY($1::uuid[]) AND a.error_code = 'delivery_interrupted') AS interrupted,
            (SELECT coalesce(extract(epoch FROM max(a.finished_at)) * 1000, 0)::float8 FROM publishing.delivery_attempts a
              WHERE a.publication_id = ANY($1::uuid[])) AS "lastFinished"
       FROM batch`,
    [publicationIds],
  );
  return rows[0];
}
