import { afterAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@social/testing';
import { testDatabase } from '../support/database.js';
import { deliveries, publicationWhen, publishNow, settled, startPublishingReplica, type PublishingReplica } from '../support/delivery.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { createTenant } from '../support/tenancy.js';

describe('publishing: a replica killed mid-delivery (docs/decisions.md: each rendition reaches its network exactly once)', () => {
  const db = testDatabase();
  let replica: PublishingReplica | undefined;

  afterAll(async () => {
    await replica?.stop();
  });

  it(
    'SIGKILL during the network call: its renditions are taken over once the lease ends, ' +
      'reconciled, and every one is live exactly once',
    async () => {
      replica = await startPublishingReplica();
      const pid = replica.child.pid;
      const { owner, workspaceId } = await createTenant();
      const accounts = [await connectSandboxAccount(owner.token, workspaceId), await connectSandboxAccount(owner.token, workspaceId)];
      // [sandbox:slow] holds each call 2 s before the sandbox stores the post: a window to kill a replica in.
      const publications = [];
      for (let i = 0; i < 8; i += 1)
        publications.push(await createPublication(owner.token, workspaceId, { source_text: `Post ${i} [sandbox:slow]` }));
      for (const publication of publications) {
        expect(
          (await publishNow(owner.token, publication.id, { expected_revision: 1, account_ids: accounts.map((a) => a.id) })).status,
        ).toBe(200);
      }
      const ids = publications.map((p) => p.id);
      // Wait until the second replica is in the middle of delivering (attempts committed as submitted, calls in flight)…
      await waitFor(
        'the second replica to be mid-delivery',
        async () => {
          const { rows } = await db.query(
            `SELECT count(*)::int AS n FROM publishing.renditions
              WHERE publication_id = ANY($1::uuid[]) AND delivery_state = 'submitted' AND lease_owner LIKE $2`,
            [ids, `%:${pid}:%`],
          );
          return rows[0].n > 0;
        },
        20_000,
      );
      // …and kill it without warning.
      replica.child.kill('SIGKILL');
      await new Promise((resolve) => replica!.child.once('exit', resolve));

      const done = [];
      for (const publication of publications) done.push(await publicationWhen(owner.token, publication.id, settled, 40_000));
      const renditions = done.flatMap((p) => p.renditions);
      expect(renditions).toHaveLength(16);
      for (const rendition of renditions)
        expect([rendition.id, rendition.status, rendition.delivery.state]).toEqual([rendition.id, 'published', 'live']);

      // Exactly once at the network: one sandbox post per rendition, none lost, none twice.
      const { rows } = await db.query(
        `SELECT marker, count(*)::int AS n FROM publishing.sandbox_posts WHERE marker = ANY($1::text[]) GROUP BY marker`,
        [renditions.map((r: any) => r.id)],
      );
      expect(rows).toHaveLength(16);
      for (const row of rows) expect([row.marker, row.n]).toEqual([row.marker, 1]);

      // The killed replica's attempts were left in doubt and reconciled, not blindly resent.
      const attempts = (await Promise.all(ids.map(async (id) => (await deliveries(owner.token, id)).body.attempts))).flat();
      const interrupted = attempts.filter((a: any) => a.error_code === 'delivery_interrupted');
      expect(interrupted.length).toBeGreaterThan(0);
      for (const attempt of interrupted) expect(attempt.outcome).toBe('ambiguous');
    },
    90_000,
  );

  it(
    'SIGTERM during the network call: the replica finishes its ' + 'calls and records them before it exits (nothing left in doubt)',
    async () => {
      replica = await startPublishingReplica();
      const pid = replica.child.pid;
      const { owner, workspaceId } = await createTenant();
      const target = await connectSandboxAccount(owner.token, workspaceId);
      const publications = [];
      for (let i = 0; i < 8; i += 1)
        publications.push(await createPublication(owner.token, workspaceId, { source_text: `Calm ${i} [sandbox:slow]` }));
      for (const publication of publications)
        await publishNow(owner.token, publication.id, { expected_revision: 1, account_ids: [target.id] });
      const ids = publications.map((p) => p.id);
      let held: string[] = [];
      await waitFor(
        'the second replica to be mid-delivery',
        async () => {
          const { rows } = await db.query(
            `SELECT id FROM publishing.renditions
              WHERE publication_id = ANY($1::uuid[]) AND delivery_state = 'submitted' AND lease_owner LIKE $2`,
            [ids, `%:${pid}:%`],
          );
          held = rows.map((row: { id: string }) => row.id);
          return held.length > 0;
        },
        20_000,
      );
      await replica.stop();
      // It stopped on its own (graceful shutdown), not through stop()'s SIGKILL after 5 s.
      expect([replica.child.exitCode, replica.child.signalCode]).toEqual([0, null]);
      // What it held went live through its own hands: one attempt each, no interruption, no reconciliation.
      const { rows } = await db.query(
        `SELECT r.status, r.delivery_state, r.delivery_current_attempt_number AS attempts,
                (SELECT count(*)::int FROM publishing.sandbox_posts s WHERE s.marker = r.id::text) AS posts
           FROM publishing.renditions r WHERE r.id = ANY($1::uuid[])`,
        [held],
      );
      expect(rows.length).toBe(held.length);
      for (const row of rows) expect(row).toEqual({ status: 'published', delivery_state: 'live', attempts: 1, posts: 1 });
      for (const publication of publications)
        expect((await publicationWhen(owner.token, publication.id, settled, 40_000)).status).toBe('published');
    },
    90_000,
  );
});
