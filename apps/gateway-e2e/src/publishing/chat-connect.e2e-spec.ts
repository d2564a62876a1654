import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeDiscordMessage, FakeDiscordWebhook, FakeTelegramMessage } from '@social/testing';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { adminCall, registerAdmin } from '../support/admin.js';
import { call, expectProblem, RFC3339_MS, type TestUser } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { publicationWhen, publishNow, settled } from '../support/delivery.js';
import { fakeControl } from '../support/fake-control.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { createPublication } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

/**
 * Discord (a channel's incoming webhook) and Telegram (a chat the instance's bot posts in) connect at once by
 * naming where to post (contract §4), checked at the fakes global setup starts (PROVIDER_API_ORIGINS points
 * discord.com and api.telegram.org at them), then take posts through the delivery engine.
 */
const discord = fakeControl('E2E_FAKE_DISCORD_URL', 'the fake Discord API');
const telegram = fakeControl('E2E_FAKE_TELEGRAM_URL', 'the fake Telegram Bot API');
const connect = (token: string, body: unknown) => call('POST', '/social-accounts/connect', { token, body });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Every secret handed to the platform (webhook URLs and tokens, the bot token), to prove none comes back or reaches a log. */
const secretsSeen: string[] = [];
const answersSeen: string[] = [];

async function connectChat(token: string, body: Record<string, unknown>) {
  const response = await connect(token, body);
  answersSeen.push(`${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${JSON.stringify(response.body)}`);
  return response;
}

async function discordWebhook(name = 'Release notes'): Promise<FakeDiscordWebhook> {
  const webhook = (await discord('POST', '/webhooks', { name })) as FakeDiscordWebhook;
  secretsSeen.push(webhook.url, webhook.token);
  return webhook;
}

/** Publishes a short text now to one account and waits for the outcome. */
async function publishTo(tenant: Tenant, accountId: string, text: string) {
  const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: 'Release notes', source_text: text });
  const started = await publishNow(tenant.owner.token, draft.id, { expected_revision: draft.revision, account_ids: [accountId] });
  expect(started.status).toBe(200);
  const done = await publicationWhen(tenant.owner.token, draft.id, settled);
  return { publication: done, rendition: done.renditions[0] };
}

async function expectIsolated(tenant: Tenant, accountId: string) {
  const intruder = await createTenant();
  await expectTenantIsolation({
    url: `/social-accounts/${accountId}`,
    ownerToken: tenant.owner.token,
    intruderToken: intruder.owner.token,
    attempts: [{ method: 'DELETE' }],
  });
  const listed = await call('GET', `/social-accounts?workspace_id=${intruder.workspaceId}`, { token: intruder.owner.token });
  expect(listed.body.accounts).toEqual([]);
}

describe('publishing: connecting and publishing to discord webhooks and telegram chats (against their fakes)', () => {
  const db = testDatabase();

  describe('discord', () => {
    afterEach(() => discord('DELETE', '/failures'));

    it('connects a webhook at once: 201, the webhook as the account, its URL sealed and never answered; again 200', async () => {
      const tenant = await createTenant();
      const webhook = await discordWebhook('Release notes');
      const response = await connectChat(tenant.owner.token, {
        workspace_id: tenant.workspaceId,
        provider: 'discord',
        webhook_url: webhook.url,
      });
      expect(response.status).toBe(201);
      await expectMatchesOwnSchema(response.body, 'SocialAccount');
      expect(response.body).toEqual({
        $schema: expect.stringMatching(/\/api\/v1\/schemas\/SocialAccount\.json$/),
        id: expect.stringMatching(UUID),
        workspace_id: tenant.workspaceId,
        platform: 'discord',
        username: 'Release notes',
        display_name: 'Release notes',
        avatar_url: '',
        status: 'active',
        posts_published: 0,
        created_at: expect.stringMatching(RFC3339_MS),
      });
      const row = (
        await db.query(`SELECT external_id, instance_url, credentials FROM publishing.social_accounts WHERE id = $1`, [response.body.id])
      ).rows[0];
      expect(row).toEqual({ external_id: webhook.id, instance_url: '', credentials: expect.stringMatching(/^v2\./) });
      expect(row.credentials).not.toContain(webhook.token);
      const again = await connectChat(tenant.owner.token, {
        workspace_id: tenant.workspaceId,
        provider: 'discord',
        webhook_url: webhook.url,
      });
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(response.body.id);
      answersSeen.push(
        JSON.stringify((await call('GET', `/social-accounts?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token })).body),
      );
      await expectIsolated(tenant, response.body.id);
    });

    it('refuses a webhook Discord does not know (422 provider_credentials_rejected), another URL, webhook_url elsewhere', async () => {
      const { owner, workspaceId } = await createTenant();
      const webhook = await discordWebhook();
      await discord('DELETE', `/webhooks/${webhook.id}`);
      const refused = expectProblem(
        await connectChat(owner.token, { workspace_id: workspaceId, provider: 'discord', webhook_url: webhook.url }),
        422,
        'provider_credentials_rejected',
      );
      expect(refused.errors).toEqual([{ location: 'body.webhook_url', message: expect.stringContaining('refused by discord') }]);
      const elsewhere = `https://hooks.example.com/api/webhooks/${webhook.id}/${webhook.token}`;
      secretsSeen.push(elsewhere);
      const shape = expectProblem(
        await connectChat(owner.token, { workspace_id: workspaceId, provider: 'discord', webhook_url: elsewhere }),
        422,
        'validation_failed',
      );
      expect(shape.errors).toEqual([{ location: 'body.webhook_url', message: expect.stringContaining('incoming webhook URL') }]);
      for (const provider of ['mastodon', 'x', 'telegram', 'sandbox']) {
        const wrong = expectProblem(
          await connectChat(owner.token, {
            workspace_id: workspaceId,
            provider,
            webhook_url: webhook.url,
            instance_url: 'https://social.example',
          }),
          422,
        );
        expect(wrong.errors).toEqual(
          expect.arrayContaining([{ location: 'body.webhook_url', message: expect.stringContaining('is only for discord') }]),
        );
      }
      expect((await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token })).body.accounts).toEqual([]);
    });

    it('publishes a post as one message of the webhook, live with its link', async () => {
      const tenant = await createTenant();
      const webhook = await discordWebhook('Changelog');
      const connected = await connectChat(tenant.owner.token, {
        workspace_id: tenant.workspaceId,
        provider: 'discord',
        webhook_url: webhook.url,
      });
      const text = `Shipped the chat adapters ${randomUUID()}`;
      const { publication, rendition } = await publishTo(tenant, connected.body.id, text);
      const messages = ((await discord('GET', '/messages')) as FakeDiscordMessage[]).filter((message) => message.webhook_id === webhook.id);
      expect(messages).toEqual([expect.objectContaining({ content: `Release notes\n\n${text}`, allowed_mentions: { parse: [] } })]);
      expect(publication.status).toBe('published');
      expect(rendition).toMatchObject({
        status: 'published',
        external_id: messages[0].id,
        external_url: `https://discord.com/channels/${webhook.guild_id}/${webhook.channel_id}/${messages[0].id}`,
      });
    });
  });

  describe('telegram', () => {
    const bot = {
      token: `${randomInt(100_000, 999_999)}:${randomBytes(24).toString('base64url')}`,
      id: 0,
      username: 'e2e_publisher_bot',
      first_name: 'Publisher',
    };
    bot.id = Number(bot.token.split(':')[0]);
    let admin: TestUser;
    let appId = '';
    const saveApp = async (isActive: boolean) => {
      const saved = await adminCall('POST', '/admin/provider-apps', {
        token: admin.token,
        body: { provider: 'telegram', client_id: 'telegram-bot', bot_token: bot.token, connection_mode: 'bot', is_active: isActive },
      });
      expect(saved.status).toBe(200);
      appId = saved.body.app.id;
    };
    /** A channel of the fake where the bot is an administrator allowed to post (unless `member` says otherwise). */
    const channel = async (member: Record<string, unknown> = { status: 'administrator', can_post_messages: true }) => {
      const chat = {
        id: -(1_000_000_000_000 + randomInt(1, 999_999_999)),
        type: 'channel',
        title: 'Launch news',
        username: `launch_${randomBytes(4).toString('hex')}`,
      };
      await telegram('POST', '/chats', chat);
      await telegram('POST', '/members', { chat_id: chat.id, user_id: bot.id, ...member });
      return chat;
    };

    beforeAll(async () => {
      secretsSeen.push(bot.token);
      admin = await registerAdmin();
      await telegram('POST', '/bots', bot);
    });
    afterAll(async () => {
      if (appId) await adminCall('DELETE', `/admin/provider-apps/${appId}`, { token: admin.token });
    });

    it('needs the instance bot: without an active telegram app 422 provider_not_configured, asking Telegram nothing', async () => {
      await saveApp(false);
      const { owner, workspaceId } = await createTenant();
      const chat = await channel();
      const problem = expectProblem(
        await connectChat(owner.token, { workspace_id: workspaceId, provider: 'telegram', chat_id: `@${chat.username}` }),
        422,
        'provider_not_configured',
      );
      expect(problem.errors).toEqual([expect.objectContaining({ location: 'body.provider' })]);
      await saveApp(true);
    });

    it('connects a channel where the bot may post: 201, the chat as the account; a channel where it may not 422', async () => {
      const tenant = await createTenant();
      const chat = await channel();
      const response = await connectChat(tenant.owner.token, {
        workspace_id: tenant.workspaceId,
        provider: 'telegram',
        chat_id: `@${chat.username}`,
      });
      expect(response.status).toBe(201);
      await expectMatchesOwnSchema(response.body, 'SocialAccount');
      expect(response.body).toMatchObject({
        platform: 'telegram',
        username: `@${chat.username}`,
        display_name: 'Launch news',
        status: 'active',
      });
      const row = (await db.query(`SELECT external_id, credentials FROM publishing.social_accounts WHERE id = $1`, [response.body.id]))
        .rows[0];
      expect(row.external_id).toBe(String(chat.id));
      const byId = await connectChat(tenant.owner.token, {
        workspace_id: tenant.workspaceId,
        provider: 'telegram',
        chat_id: String(chat.id),
      });
      expect(byId.status).toBe(200);

      const muted = await channel({ status: 'administrator', can_post_messages: false });
      const refused = expectProblem(
        await connectChat(tenant.owner.token, { workspace_id: tenant.workspaceId, provider: 'telegram', chat_id: String(muted.id) }),
        422,
        'provider_credentials_rejected',
      );
      expect(refused.errors).toEqual([{ location: 'body.chat_id', message: expect.stringContaining('allowed to post') }]);
      expectProblem(
        await connectChat(tenant.owner.token, { workspace_id: tenant.workspaceId, provider: 'telegram', chat_id: 'not a chat' }),
        422,
        'validation_failed',
      );
      expectProblem(
        await connectChat(tenant.owner.token, { workspace_id: tenant.workspaceId, provider: 'discord', chat_id: String(chat.id) }),
        422,
        'validation_failed',
      );
      await expectIsolated(tenant, response.body.id);
    });

    it('publishes a post as a message of the chat, live with its t.me link', async () => {
      const tenant = await createTenant();
      const chat = await channel();
      const connected = await connectChat(tenant.owner.token, {
        workspace_id: tenant.workspaceId,
        provider: 'telegram',
        chat_id: `@${chat.username}`,
      });
      const text = `Launch day <3 & more ${randomUUID()}`;
      const { publication, rendition } = await publishTo(tenant, connected.body.id, text);
      const messages = ((await telegram('GET', '/messages')) as FakeTelegramMessage[]).filter((message) => message.chat_id === chat.id);
      expect(messages).toEqual([expect.objectContaining({ method: 'sendMessage', text: `Release notes\n\n${text}`, parse_mode: null })]);
      expect(publication.status).toBe('published');
      expect(rendition).toMatchObject({
        status: 'published',
        external_id: String(messages[0].message_id),
        external_url: `https://t.me/${chat.username}/${messages[0].message_id}`,
      });
    });
  });

  it('never answers or logs a webhook URL, a webhook token or the bot token', () => {
    expect(answersSeen.length).toBeGreaterThan(0);
    const log = readFileSync(process.env.E2E_LOG_FILE!, 'utf8');
    for (const secret of secretsSeen) {
      expect({ secret, answers: answersSeen.filter((answer) => answer.includes(secret)).length }).toEqual({ secret, answers: 0 });
      expect({ secret, logged: log.includes(secret) }).toEqual({ secret, logged: false });
    }
  });
});
