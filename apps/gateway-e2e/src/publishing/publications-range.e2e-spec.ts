import { describe, expect, it } from '@jest/globals';
import { call, expectProblem } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { inMs, publicationWhen, publishNow, schedule, settled } from '../support/delivery.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { createTenant } from '../support/tenancy.js';

const DAY = 86_400_000;
const list = (token: string, query: string) => call('GET', `/publications?${query}`, { token });
const ids = (response: { body: { publications: Array<{ id: string }> } }) => response.body.publications.map((p) => p.id).sort();
const locations = (problem: { errors: Array<{ location: string }> }) => [...new Set(problem.errors.map((e) => e.location))].sort();
const range = (from: number, to: number) => `from=${encodeURIComponent(inMs(from))}&to=${encodeURIComponent(inMs(to))}`;

describe("publishing: publications by time (the calendar's range)", () => {
  const db = testDatabase();

  it('from/to keep the publications whose time (went out, else due) falls in the range; drafts have none', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const scheduledFor = async (ms: number) => {
      const publication = await createPublication(owner.token, workspaceId, { title: `in ${ms / DAY} days` });
      const at = inMs(ms);
      expect(
        (await schedule(owner.token, publication.id, { expected_revision: 1, scheduled_at: at, account_ids: [account.id] })).status,
      ).toBe(200);
      return publication.id as string;
    };
    const tomorrow = await scheduledFor(DAY);
    const inThreeDays = await scheduledFor(3 * DAY);
    const inTenDays = await scheduledFor(10 * DAY);
    const draft = (await createPublication(owner.token, workspaceId)).id;
    const sent = (await createPublication(owner.token, workspaceId, { title: 'now' })).id;
    expect((await publishNow(owner.token, sent, { expected_revision: 1, account_ids: [account.id] })).status).toBe(200);
    const published = await publicationWhen(owner.token, sent, settled);
    expect(published.actual_run_at).not.toBe('');

    const query = (from: number, to: number, extra = '') => list(owner.token, `workspace_id=${workspaceId}&${range(from, to)}${extra}`);
    expect(ids(await query(-DAY, 2 * DAY))).toEqual([sent, tomorrow].sort());
    expect(ids(await query(2 * DAY, 5 * DAY))).toEqual([inThreeDays]);
    expect(ids(await query(-DAY, 30 * DAY))).toEqual([sent, tomorrow, inThreeDays, inTenDays].sort());
    expect(ids(await query(-DAY, 30 * DAY, '&status=scheduled'))).toEqual([tomorrow, inThreeDays, inTenDays].sort());
    expect(ids(await query(20 * DAY, 30 * DAY))).toEqual([]);
    // Without a range the list has them all, the draft too.
    expect(ids(await list(owner.token, `workspace_id=${workspaceId}`))).toContain(draft);

    // A publication that went out is placed at its actual run, not at the time it was once scheduled for.
    await db.query(`UPDATE publishing.publications SET scheduled_at = now() + interval '40 days' WHERE id = $1`, [sent]);
    expect(ids(await query(-DAY, DAY / 2))).toEqual([sent]);

    // `from` is inclusive, `to` exclusive: the publication due exactly at `to` is the next range's.
    const due = (await call('GET', `/publications/${tomorrow}`, { token: owner.token })).body.scheduled_at as string;
    const exact = (from: string, to: string) =>
      list(owner.token, `workspace_id=${workspaceId}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(ids(await exact(due, new Date(Date.parse(due) + 1000).toISOString()))).toEqual([tomorrow]);
    expect(ids(await exact(new Date(Date.parse(due) - 1000).toISOString(), due))).toEqual([]);

    // Pages through a range with cursors bound to it (the very same from and to).
    const month = range(-DAY, 30 * DAY);
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await list(
        owner.token,
        `workspace_id=${workspaceId}&${month}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...ids(page));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([sent, tomorrow, inThreeDays, inTenDays].sort());
  });

  it('refuses half ranges, bad times, a `to` not after `from` and ranges over 92 days (422 at their parameter)', async () => {
    const { owner, workspaceId } = await createTenant();
    await createPublication(owner.token, workspaceId);
    const w = `workspace_id=${workspaceId}`;
    const first = await list(owner.token, `${w}&${range(-DAY, DAY)}&limit=1`);
    expect(first.status).toBe(200);
    const unranged = (await list(owner.token, `${w}&limit=1`)).body.publications;
    expect(unranged).toHaveLength(1);
    await createPublication(owner.token, workspaceId);
    const cursor = (await list(owner.token, `${w}&limit=1`)).body.next_cursor as string;

    const refusals: Array<[string, string[]]> = [
      [`${w}&from=2026-05-01T00:00:00Z`, ['query.from']],
      [`${w}&to=2026-05-01T00:00:00Z`, ['query.to']],
      [`${w}&from=yesterday&to=2026-05-01T00:00:00Z`, ['query.from']],
      [`${w}&from=2026-05-01&to=2026-05-08`, ['query.from', 'query.to']],
      [`${w}&from=2026-02-31T00:00:00Z&to=2026-03-05T00:00:00Z`, ['query.from']],
      [`${w}&from=2026-05-01T00:00:00Z&to=2026-13-01T00:00:00Z`, ['query.to']],
      [`${w}&from=2026-05-08T00:00:00Z&to=2026-05-01T00:00:00Z`, ['query.to']],
      [`${w}&from=2026-05-01T00:00:00Z&to=2026-05-01T00:00:00Z`, ['query.to']],
      [`${w}&from=2026-01-01T00:00:00Z&to=2026-04-03T00:00:01Z`, ['query.to']],
      [`${w}&from=&to=`, ['query.from', 'query.to']],
      // A cursor issued without a range is no cursor of a ranged list.
      [`${w}&${range(-DAY, DAY)}&cursor=${encodeURIComponent(cursor)}`, ['query.cursor']],
    ];
    for (const [query, expected] of refusals) {
      const problem = expectProblem(await list(owner.token, query), 422, 'validation_failed');
      expect([query, locations(problem)]).toEqual([query, expected]);
    }
    // Exactly 92 days is allowed, with any offset.
    expect((await list(owner.token, `${w}&from=2026-01-01T00:00:00Z&to=2026-04-03T00:00:00Z`)).status).toBe(200);
    expect((await list(owner.token, `${w}&from=2026-01-01T02:00:00%2B02:00&to=2026-01-08T00:00:00.5Z`)).status).toBe(200);
    const tooWide = expectProblem(await list(owner.token, `${w}&from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`), 422);
    expect(tooWide.errors[0].message).toMatch(/92 days/);
  });

  it("another tenant's workspace is 403 with a range as without, and sees none of its publications", async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    await schedule(owner.token, publication.id, { expected_revision: 1, scheduled_at: inMs(DAY), account_ids: [account.id] });
    expectProblem(await list(intruder.owner.token, `workspace_id=${workspaceId}&${range(0, 2 * DAY)}`), 403, 'workspace_forbidden');
    expect((await list(intruder.owner.token, `workspace_id=${intruder.workspaceId}&${range(0, 2 * DAY)}`)).body.publications).toEqual([]);
    expect(ids(await list(owner.token, `workspace_id=${workspaceId}&${range(0, 2 * DAY)}`))).toEqual([publication.id]);
  });
});
