import { beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createPlatformClient } from '@social/sdk';
import type { OpenApiDocument } from './operation-input.js';
import { platformTools } from './platform-tools.js';
import { ToolSession } from './tool-session.js';

const document = JSON.parse(readFileSync(new URL('../../../../libs/sdk/openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;
const tools = platformTools(document);
const BASE = 'http://platform.test';
const ID = '0190d0c4-0000-7000-8000-000000000001';
const SET = '0190d0c4-0000-7000-8000-0000000000aa';

interface Sent {
  method: string;
  path: string;
  headers: Headers;
  body: any;
}

/** A platform that answers every call from `answers` (by "METHOD /path") and records what was sent. */
function fakePlatform(answers: Record<string, () => Response>) {
  const sent: Sent[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const text = await request.text();
    sent.push({
      method: request.method,
      path: url.pathname + url.search,
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
    });
    const answer = answers[`${request.method} ${url.pathname}`];
    if (!answer) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    return answer();
  };
  return { sent, session: new ToolSession(createPlatformClient({ baseUrl: BASE, token: 'spk_test', fetch }), tools, BASE) };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'x', status, code, detail, request_id: 'req-1', ...extra }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });
const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((part) => part.text).join('\n');

describe('ToolSession', () => {
  let platform: ReturnType<typeof fakePlatform>;

  beforeEach(() => {
    platform = fakePlatform({
      'GET /publications': () => json(200, { publications: [], next_cursor: '' }),
      'POST /publications': () => json(201, { id: ID, revision: 1 }, { 'idempotent-replayed': 'true' }),
      [`GET /publications/${ID}`]: () => json(200, { id: ID, revision: 3 }),
      [`POST /publications/${ID}/preview`]: () => json(200, { renditions: [] }),
      [`POST /publications/${ID}/schedule`]: () => json(200, { id: ID, revision: 4, status: 'scheduled' }),
      [`POST /publications/${ID}/cancel`]: () => json(200, { id: ID, revision: 5, status: 'draft' }),
      [`PATCH /publications/${ID}`]: () =>
        problem(422, 'validation_failed', 'The request is invalid.', {
          errors: [{ location: 'body.media[0].media_id', message: 'not in the library' }],
        }),
    });
  });

  it('calls the API with the query arguments and answers its data', async () => {
    const result = await platform.session.call('list_publications', { workspace_id: SET, status: 'draft' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ publications: [], next_cursor: '' });
    expect(platform.sent).toEqual([expect.objectContaining({ method: 'GET', path: `/publications?workspace_id=${SET}&status=draft` })]);
    expect(platform.sent[0].headers.get('authorization')).toBe('Bearer spk_test');
  });

  it('refuses a write without idempotency_key, unknown and missing arguments, sending nothing', async () => {
    const draft = { workspace_id: SET, content_profile: 'short_text', title: 'T', source_text: '' };
    expect(text(await platform.session.call('create_draft', draft))).toMatch(/^idempotency_key is required for create_draft/);
    expect(text(await platform.session.call('list_publications', { workspace_id: SET, owner: 'me' }))).toMatch(/^Unknown argument owner;/);
    expect(text(await platform.session.call('get_publication', {}))).toBe('Missing argument id for get_publication.');
    expect((await platform.session.call('nothing', {})).isError).toBe(true);
    expect(platform.sent).toEqual([]);
  });

  it("sends create_draft's key as the Idempotency-Key header, not in the body, and says when the platform replayed", async () => {
    const result = await platform.session.call('create_draft', {
      workspace_id: SET,
      content_profile: 'short_text',
      title: 'T',
      source_text: '',
      idempotency_key: 'draft-1',
    });
    expect(text(result)).toMatch(/^Replayed by the platform: nothing new\./);
    expect(platform.sent[0].headers.get('idempotency-key')).toBe('draft-1');
    expect(platform.sent[0].body).toEqual({ workspace_id: SET, content_profile: 'short_text', title: 'T', source_text: '' });
  });

  it('schedules only after a preview of the same revision and targets in this session', async () => {
    const schedule = { id: ID, expected_revision: 3, scheduled_at: '2030-01-01T00:00:00.000Z', social_set_id: SET, idempotency_key: 's-1' };
    expect(text(await platform.session.call('schedule_publication', schedule))).toMatch(/^Not previewed: Only after preview_publication/);
    expect(platform.sent).toEqual([]);

    const preview = await platform.session.call('preview_publication', { id: ID, social_set_id: SET });
    expect(preview.structuredContent).toEqual({ publication_id: ID, revision: 3, renditions: [] });
    expect(text(preview)).toMatch(/pass expected_revision 3 and the same targets/);

    expect(text(await platform.session.call('schedule_publication', { ...schedule, social_set_id: undefined }))).toMatch(/^Not previewed/);
    expect(text(await platform.session.call('schedule_publication', { ...schedule, expected_revision: 2 }))).toMatch(/^Not previewed/);
    expect(text(await platform.session.call('publish_now', { id: ID, expected_revision: 3, idempotency_key: 'p-1' }))).toMatch(
      /^Not previewed/,
    );
    const scheduled = await platform.session.call('schedule_publication', schedule);
    expect(scheduled.structuredContent).toMatchObject({ status: 'scheduled' });
    expect(platform.sent.map((call) => `${call.method} ${call.path}`)).toEqual([
      `GET /publications/${ID}`,
      `POST /publications/${ID}/preview`,
      `POST /publications/${ID}/schedule`,
    ]);
    expect(platform.sent[2].body).toEqual({ expected_revision: 3, scheduled_at: schedule.scheduled_at, social_set_id: SET });
    expect(platform.sent[2].headers.has('idempotency-key')).toBe(false);
  });

  it('answers a repeated key with the same arguments from the first success, and refuses it with others', async () => {
    const cancel = { id: ID, expected_revision: 4, idempotency_key: 'c-1' };
    const first = await platform.session.call('cancel_publication', cancel);
    const again = await platform.session.call('cancel_publication', cancel);
    expect(platform.sent).toHaveLength(1);
    expect(text(again)).toMatch(/^Replayed: this key was already used; nothing was sent again\./);
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(text(await platform.session.call('cancel_publication', { ...cancel, expected_revision: 5 }))).toMatch(/^idempotency_key_reused/);
    expect(platform.sent).toHaveLength(1);
  });

  it("turns the platform's problem into a tool error naming each argument, and a refused one may be tried again", async () => {
    const attach = { id: ID, expected_revision: 3, media: [{ media_id: SET }], idempotency_key: 'a-1' };
    const result = await platform.session.call('attach_media', attach);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('422 validation_failed: The request is invalid. (request req-1)\n- media[0].media_id: not in the library');
    await platform.session.call('attach_media', attach);
    expect(platform.sent).toHaveLength(2);
  });

  it('says where the platform could not be reached, without a stack trace', async () => {
    const result = await platform.session.call('list_deliveries', { id: ID });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(`The platform at ${BASE} did not answer: connect ECONNREFUSED`);
  });
});
