import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { promptDefinition } from '@social/contracts';
import { ENVIRONMENT_AI_MODEL } from '@social/testing';
import { aiApiKey, aiRequests, FakeAiReply, queueAiReplies } from '../support/ai.js';
import { ApiResponse, call, eventually, expectProblem, registerUser } from '../support/api.js';
import { adminCall, locations, registerAdmin } from '../support/admin.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace, Tenant } from '../support/tenancy.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PROMPT_PATH = '/admin/ai-prompts/publication_builds.angles';
/** In the fake provider's error bodies: it must never reach a client. */
const PROVIDER_DETAIL = `provider-internal-detail-${randomUUID()}`;

/** Every answer of this suite, to prove the provider's key and bodies never leak. */
const answers: string[] = [];

async function plan(token: string, body: unknown): Promise<ApiResponse> {
  const response = await call('POST', '/publication-builds/angles', { token, body });
  answers.push(`${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${JSON.stringify(response.body)}`);
  return response;
}

/** An angle as a model writes it, every member given. */
const angle = (n: number) => ({
  label: `Label ${n}`,
  hook: `Hook ${n}`,
  thesis: `Thesis ${n}`,
  approach: `Approach ${n}`,
  objective: `Objective ${n}`,
  desired_reaction: `Reaction ${n}`,
  evidence: `Evidence ${n}`,
  build_direction: {
    angle: `Angle ${n}`,
    audience: `Audience ${n}`,
    media_preference: `Media ${n}`,
    outcome: `Outcome ${n}`,
    tone_adjustment: `Tone ${n}`,
  },
  media: { brief: `Brief ${n}`, role: `Role ${n}`, source_ref: `Source ${n}`, treatment: `Treatment ${n}` },
});
const validContent = { angles: [angle(1), angle(2), angle(3)] };
const EMPTY_BUILD_DIRECTION = { angle: '', audience: '', media_preference: '', outcome: '', tone_adjustment: '' };
const EMPTY_MEDIA = { brief: '', role: '', source_ref: '', treatment: '' };

async function newSocialSet(token: string, workspaceId: string, name: string, accountIds: string[]) {
  const response = await call('POST', '/social-sets', {
    token,
    body: { workspace_id: workspaceId, name, accounts: accountIds.map((id) => ({ social_account_id: id })) },
  });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string };
}

async function newVoiceProfile(token: string, workspaceId: string, name: string, definition: object) {
  const response = await call('POST', '/voice-profiles', { token, body: { workspace_id: workspaceId, name, definition } });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string; definition: Record<string, unknown> };
}

/** Angles as E16 answers them: the model's members and an id of ours. */
const answered = (...angles: object[]) => angles.map((a) => ({ id: expect.stringMatching(UUID_V7), ...a }));

describe('publishing: publication angles (E16)', () => {
  let tenant: Tenant;
  let editorToken: string;
  /** Each test's requests carry its own marker in the idea, so its scripted replies answer it alone. */
  const idea = (marker: string) => `A launch post about our new bakery (${marker})`;

  beforeAll(async () => {
    tenant = await createTenant();
    editorToken = (await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor')).token;
  });

  it('answers 3 to 5 angles with every member, ids of ours, from the configured model, prompt and brief', async () => {
    const marker = randomUUID();
    const first = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, `bakery.${marker.slice(0, 8)}`);
    const second = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, `crumbs.${marker.slice(0, 8)}`);
    const sparse = {
      label: '  Sparse  ',
      hook: 'Only the core',
      thesis: 'Members left out become ""',
      evidence: null,
      id: 'model-id',
      mood: 'extra',
    };
    await queueAiReplies({ match: marker, content: { angles: [angle(1), angle(2), angle(3), sparse] } });

    const response = await plan(editorToken, {
      workspace_id: tenant.workspaceId,
      idea: idea(marker),
      account_ids: [second.id, first.id],
      context_notes: 'Opening on Saturday',
      direction: 'Warm and local',
      $schema: 'ignored',
    });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'PlanPublicationAnglesOutputBody');
    expect(response.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/PlanPublicationAnglesOutputBody\.json$/),
      angles: answered(angle(1), angle(2), angle(3), {
        label: 'Sparse',
        hook: 'Only the core',
        thesis: 'Members left out become ""',
        approach: '',
        objective: '',
        desired_reaction: '',
        evidence: '',
        build_direction: EMPTY_BUILD_DIRECTION,
        media: EMPTY_MEDIA,
      }),
    });
    expect(new Set(response.body.angles.map((a: { id: string }) => a.id)).size).toBe(4);

    const requests = await aiRequests(marker);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: `Bearer ${aiApiKey()}` });
    const sent = requests[0].body as { model: string; response_format: unknown; messages: Array<{ role: string; content: string }> };
    expect(sent.model).toBe(ENVIRONMENT_AI_MODEL);
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(sent.messages).toHaveLength(2);
    expect(sent.messages[0]).toEqual({ role: 'system', content: promptDefinition('publication_builds.angles')!.default_value });
    expect(sent.messages[1].role).toBe('user');
    expect(JSON.parse(sent.messages[1].content)).toEqual({
      idea: idea(marker),
      context_notes: 'Opening on Saturday',
      direction: 'Warm and local',
      accounts: [
        { platform: 'sandbox', username: second.username },
        { platform: 'sandbox', username: first.username },
      ],
      social_set: null,
      voice: null,
    });

    // Optional members left out reach the model as "" (and a fresh call gets fresh ids).
    const plain = await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(`${marker}-plain`) });
    expect(plain.status).toBe(200);
    expect(plain.body.angles).toHaveLength(3);
    const [plainRequest] = await aiRequests(`${marker}-plain`);
    expect(JSON.parse((plainRequest.body as { messages: Array<{ content: string }> }).messages[1].content)).toEqual({
      idea: idea(`${marker}-plain`),
      context_notes: '',
      direction: '',
      accounts: [],
      social_set: null,
      voice: null,
    });
  });

  it("tells the model the social set's name and accounts (in the set's order) and the voice profile's definition", async () => {
    const marker = randomUUID();
    const first = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const second = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const set = await newSocialSet(tenant.owner.token, tenant.workspaceId, `Launch ${marker.slice(0, 8)}`, [second.id, first.id]);
    const voice = await newVoiceProfile(tenant.owner.token, tenant.workspaceId, `Founder ${marker.slice(0, 8)}`, {
      traits: ['warm'],
      humor: 'dry',
    });

    const response = await plan(editorToken, {
      workspace_id: tenant.workspaceId,
      idea: idea(marker),
      social_set_id: set.id,
      voice_profile_id: voice.id,
    });
    expect(response.status).toBe(200);
    const [request] = await aiRequests(marker);
    expect(JSON.parse((request.body as { messages: Array<{ content: string }> }).messages[1].content)).toEqual({
      idea: idea(marker),
      context_notes: '',
      direction: '',
      accounts: [],
      social_set: {
        name: set.name,
        accounts: [
          { platform: 'sandbox', username: second.username },
          { platform: 'sandbox', username: first.username },
        ],
      },
      voice: { name: voice.name, definition: voice.definition },
    });
    expect(voice.definition).toMatchObject({ traits: ['warm'], humor: 'dry' });

    // A set without accounts is named with an empty list.
    const empty = await newSocialSet(tenant.owner.token, tenant.workspaceId, `Empty ${marker.slice(0, 8)}`, []);
    expect(
      (await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(`${marker}-empty`), social_set_id: empty.id })).status,
    ).toBe(200);
    const [emptyRequest] = await aiRequests(`${marker}-empty`);
    expect(JSON.parse((emptyRequest.body as { messages: Array<{ content: string }> }).messages[1].content).social_set).toEqual({
      name: empty.name,
      accounts: [],
    });
  });

  it('sends the prompt an administrator saved, from the next request on', async () => {
    const admin = await registerAdmin();
    const marker = randomUUID();
    const custom = `Propose angles for ${marker}; answer {"angles": [...]}.`;
    try {
      expect((await adminCall('PUT', PROMPT_PATH, { token: admin.token, body: { value: custom } })).status).toBe(200);
      expect((await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(marker) })).status).toBe(200);
    } finally {
      expect((await adminCall('DELETE', PROMPT_PATH, { token: admin.token })).body.overridden).toBe(false);
    }
    const [request] = await aiRequests(marker);
    expect((request.body as { messages: Array<{ role: string; content: string }> }).messages[0]).toEqual({
      role: 'system',
      content: custom,
    });
  });

  it.each<[string, FakeAiReply['content']]>([
    ['raw text', 'Here are some angles: 1. Behind the scenes'],
    ['two angles', { angles: [angle(1), angle(2)] }],
    ['six angles', { angles: [1, 2, 3, 4, 5, 6].map(angle) }],
    ['no angles member', { ideas: [angle(1), angle(2), angle(3)] }],
    ['an angle without a hook', { angles: [angle(1), angle(2), { ...angle(3), hook: '  ' }] }],
    ['a member of the wrong type', { angles: [angle(1), angle(2), { ...angle(3), evidence: ['a', 'b'] }] }],
    ['media that is not an object', { angles: [angle(1), angle(2), { ...angle(3), media: 'a photo' }] }],
  ])('asks once more when the model answers %s, and answers the valid second answer (200, 2 provider calls)', async (_name, content) => {
    const marker = randomUUID();
    await queueAiReplies({ match: marker, content }, { match: marker, content: validContent });
    const response = await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(marker) });
    expect(response.status).toBe(200);
    expect(response.body.angles).toEqual(answered(...validContent.angles));
    expect(await aiRequests(marker)).toHaveLength(2);
  });

  it('accepts JSON inside one Markdown code fence at the first try', async () => {
    const marker = randomUUID();
    await queueAiReplies({ match: marker, content: `\`\`\`json\n${JSON.stringify(validContent)}\n\`\`\`` });
    const response = await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(marker) });
    expect(response.status).toBe(200);
    expect(response.body.angles).toEqual(answered(...validContent.angles));
    expect(await aiRequests(marker)).toHaveLength(1);
  });

  it('answers 502 ai_invalid_output when the model is unusable twice, after exactly 2 provider calls', async () => {
    const marker = randomUUID();
    await queueAiReplies(
      { match: marker, content: 'not JSON' },
      { match: marker, content: { angles: [] } },
      { match: marker, content: validContent },
    );
    expectProblem(await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(marker) }), 502, 'ai_invalid_output');
    expect(await aiRequests(marker)).toHaveLength(2);
  });

  it.each<[string, FakeAiReply]>([
    ['a 500', { status: 500, raw_body: JSON.stringify({ error: { message: PROVIDER_DETAIL, type: 'server_error' } }) }],
    ['a 401 (bad key)', { status: 401, raw_body: JSON.stringify({ error: { message: PROVIDER_DETAIL, type: 'invalid_api_key' } }) }],
    ['a 200 that is not a chat completion', { raw_body: `<html>${PROVIDER_DETAIL}</html>` }],
  ])('answers 502 ai_provider_error when the provider answers %s, without retrying or repeating what it said', async (_name, reply) => {
    const marker = randomUUID();
    await queueAiReplies({ match: marker, ...reply }, { match: marker, content: validContent });
    const problem = expectProblem(
      await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(marker) }),
      502,
      'ai_provider_error',
    );
    expect(JSON.stringify(problem)).not.toContain(PROVIDER_DETAIL);
    expect(await aiRequests(marker)).toHaveLength(1);
  });

  it('answers 504 ai_timeout with Retry-After once AI_TIMEOUT_MS (1.5 s in e2e) has passed', async () => {
    const marker = randomUUID();
    await queueAiReplies({ match: marker, content: validContent, delay_ms: 4_000 });
    const started = Date.now();
    const response = await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(marker) });
    const elapsed = Date.now() - started;
    expectProblem(response, 504, 'ai_timeout');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(elapsed).toBeGreaterThanOrEqual(1_400);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('shares one time budget between the attempts: a slow unusable answer leaves the retry what remains', async () => {
    const marker = randomUUID();
    await queueAiReplies(
      { match: marker, content: 'not JSON', delay_ms: 1_000 },
      { match: marker, content: validContent, delay_ms: 1_000 },
    );
    const started = Date.now();
    expectProblem(await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(marker) }), 504, 'ai_timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await aiRequests(marker)).toHaveLength(2);
  });

  it(
    'answers 503 ai_not_configured without a base URL, ' +
      '502 when the provider is unreachable (settings apply live), and works again once restored',
    async () => {
      const admin = await registerAdmin();
      const own = await createTenant();
      const body = () => ({ workspace_id: own.workspaceId, idea: idea(randomUUID()) });
      const save = (settings: unknown) => adminCall('PUT', '/admin/instance-settings', { token: admin.token, body: { settings } });
      try {
        expect((await save([{ key: 'ai_base_url', value: '' }])).status).toBe(200);
        await eventually(async () => {
          const problem = expectProblem(await plan(own.owner.token, body()), 503, 'ai_not_configured');
          expect(problem.detail).toMatch(/configured/);
        });
        // Bad input is still judged first.
        expectProblem(await plan(own.owner.token, { workspace_id: own.workspaceId }), 422, 'validation_failed');

        // Nothing listens on port 1: connection refused.
        expect((await save([{ key: 'ai_base_url', value: 'http://127.0.0.1:1/v1' }])).status).toBe(200);
        await eventually(async () => {
          expectProblem(await plan(own.owner.token, body()), 502, 'ai_provider_error');
        });
      } finally {
        expect((await save([{ key: 'ai_base_url', unset: true }])).status).toBe(200);
      }
      await eventually(async () => {
        expect((await plan(own.owner.token, body())).status).toBe(200);
      });
    },
  );

  it('refuses bad input with 422 naming each location', async () => {
    const ws = tenant.workspaceId;
    const token = editorToken;
    expect(locations(expectProblem(await plan(token, {}), 422, 'validation_failed')).sort()).toEqual(['body.idea', 'body.workspace_id']);
    const types = expectProblem(
      await plan(token, {
        workspace_id: 'nope',
        idea: 5,
        account_ids: 'all',
        social_set_id: 'set',
        voice_profile_id: 7,
        context_notes: ['a'],
        direction: { a: 1 },
        extra: true,
      }),
      422,
    );
    expect(new Set(locations(types))).toEqual(
      new Set([
        'body.workspace_id',
        'body.idea',
        'body.account_ids',
        'body.social_set_id',
        'body.voice_profile_id',
        'body.context_notes',
        'body.direction',
        'body.extra',
      ]),
    );
    const nulls = expectProblem(await plan(token, { workspace_id: ws, idea: null, direction: null }), 422);
    expect(nulls.errors).toEqual(
      expect.arrayContaining([
        { location: 'body.idea', message: 'must not be null', value: null },
        { location: 'body.direction', message: 'must not be null', value: null },
      ]),
    );
    const lengths = expectProblem(
      await plan(token, { workspace_id: ws, idea: 'x'.repeat(5_001), context_notes: 'x'.repeat(5_001), direction: 'x'.repeat(1_001) }),
      422,
    );
    expect(locations(lengths).sort()).toEqual(['body.context_notes', 'body.direction', 'body.idea']);
    expect(locations(expectProblem(await plan(token, { workspace_id: ws, idea: '   ' }), 422))).toEqual(['body.idea']);
    expect(locations(expectProblem(await plan(token, { workspace_id: ws, idea: '' }), 422))).toEqual(['body.idea']);
    expect(locations(expectProblem(await plan(token, { workspace_id: ws, idea: 'x', account_ids: ['nope'] }), 422))).toEqual([
      'body.account_ids',
    ]);
    const many = Array.from({ length: 51 }, () => randomUUID());
    expect(locations(expectProblem(await plan(token, { workspace_id: ws, idea: 'x', account_ids: many }), 422))).toEqual([
      'body.account_ids',
    ]);
    const twice = randomUUID();
    expect(locations(expectProblem(await plan(token, { workspace_id: ws, idea: 'x', account_ids: [twice, twice] }), 422))).toEqual([
      'body.account_ids',
    ]);
  });

  it(
    "refuses a social set or voice profile that is not the workspace's " +
      "(unknown or another tenant's) with 422 at its location, all at once",
    async () => {
      const marker = randomUUID();
      const other = await createTenant();
      const foreignSet = await newSocialSet(other.owner.token, other.workspaceId, 'Theirs', []);
      const foreignVoice = await newVoiceProfile(other.owner.token, other.workspaceId, 'Theirs', {});
      const unknownAccount = randomUUID();
      for (const [setId, voiceId] of [
        [foreignSet.id, foreignVoice.id],
        [randomUUID(), randomUUID()],
      ]) {
        const problem = expectProblem(
          await plan(editorToken, {
            workspace_id: tenant.workspaceId,
            idea: idea(marker),
            account_ids: [unknownAccount],
            social_set_id: setId,
            voice_profile_id: voiceId,
          }),
          422,
          'validation_failed',
        );
        expect(problem.errors).toEqual([
          { location: 'body.account_ids[0]', message: 'is not an account of this workspace', value: unknownAccount },
          { location: 'body.social_set_id', message: 'is not a social set of this workspace', value: setId },
          { location: 'body.voice_profile_id', message: 'is not a voice profile of this workspace', value: voiceId },
        ]);
      }
      expect(await aiRequests(marker)).toEqual([]);
      // Its owner may use them.
      expect(
        (
          await plan(other.owner.token, {
            workspace_id: other.workspaceId,
            idea: idea(marker),
            social_set_id: foreignSet.id,
            voice_profile_id: foreignVoice.id,
          })
        ).status,
      ).toBe(200);
    },
  );

  it(
    "refuses accounts that are not the workspace's (unknown or another tenant's) " + 'with 422 at each index, before asking the model',
    async () => {
      const marker = randomUUID();
      const own = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
      const other = await createTenant();
      const foreign = await connectSandboxAccount(other.owner.token, other.workspaceId);
      const unknown = randomUUID();
      const problem = expectProblem(
        await plan(editorToken, { workspace_id: tenant.workspaceId, idea: idea(marker), account_ids: [own.id, foreign.id, unknown] }),
        422,
        'validation_failed',
      );
      expect(problem.errors).toEqual([
        { location: 'body.account_ids[1]', message: 'is not an account of this workspace', value: foreign.id },
        { location: 'body.account_ids[2]', message: 'is not an account of this workspace', value: unknown },
      ]);
      expect(await aiRequests(marker)).toEqual([]);
      // The other tenant names its own account in its own workspace: fine.
      expect(
        (await plan(other.owner.token, { workspace_id: other.workspaceId, idea: idea(marker), account_ids: [foreign.id.toUpperCase()] }))
          .status,
      ).toBe(200);
    },
  );

  it(
    'lets editors and admins plan; viewers get 403 insufficient_role; ' + 'strangers 403 workspace_forbidden, existing workspace or not',
    async () => {
      const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
      const marker = randomUUID();
      expectProblem(await plan(viewer.token, { workspace_id: tenant.workspaceId, idea: idea(marker) }), 403, 'insufficient_role');
      const stranger = await registerUser();
      expectProblem(await plan(stranger.token, { workspace_id: tenant.workspaceId, idea: idea(marker) }), 403, 'workspace_forbidden');
      expectProblem(await plan(stranger.token, { workspace_id: randomUUID(), idea: idea(marker) }), 403, 'workspace_forbidden');
      expect(await aiRequests(marker)).toEqual([]);
      expect((await plan(tenant.owner.token, { workspace_id: tenant.workspaceId, idea: idea(marker) })).status).toBe(200);
      expectProblem(await call('POST', '/publication-builds/angles', { body: { workspace_id: tenant.workspaceId, idea: 'x' } }), 401);
    },
  );

  it('limits each user to 30 requests a minute (429 with Retry-After); other users are not affected', async () => {
    const own = await createTenant();
    // A fixed one-minute window: start early in one, so all 31 requests fall in it.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 100));
    // Refused requests do not count.
    for (let i = 0; i < 3; i++) expectProblem(await plan(own.owner.token, { workspace_id: own.workspaceId, idea: '' }), 422);
    for (let i = 0; i < 30; i++) {
      expect((await plan(own.owner.token, { workspace_id: own.workspaceId, idea: idea(randomUUID()) })).status).toBe(200);
    }
    const limited = await plan(own.owner.token, { workspace_id: own.workspaceId, idea: idea(randomUUID()) });
    expectProblem(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await plan(tenant.owner.token, { workspace_id: tenant.workspaceId, idea: idea(randomUUID()) })).status).toBe(200);
  }, 90_000);

  it("never answers the provider's key or what the provider said", () => {
    expect(answers.length).toBeGreaterThan(0);
    for (const secret of [aiApiKey(), PROVIDER_DETAIL]) {
      expect(answers.filter((answer) => answer.includes(secret))).toEqual([]);
    }
  });
});
