import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  answerUnlessLost,
  CONTROL_PREFIX,
  drain,
  FakeServer,
  readMultipart,
  readRaw,
  type ReceivedFile,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** A channel's incoming webhook at the fake (POST /__control/webhooks); omitted members are made up. */
export interface FakeDiscordWebhookRequest {
  id?: string;
  token?: string;
  name?: string;
  guild_id?: string | null;
  channel_id?: string;
  avatar?: string | null;
}

export interface FakeDiscordWebhook {
  id: string;
  token: string;
  name: string;
  guild_id: string | null;
  channel_id: string;
  avatar: string | null;
  /** The URL a user copies from Discord: `https://discord.com/api/webhooks/{id}/{token}` (PROVIDER_API_ORIGINS points it here). */
  url: string;
}

/** A message a webhook executed, as the fake keeps it (GET /__control/messages). */
export interface FakeDiscordMessage {
  id: string;
  webhook_id: string;
  channel_id: string;
  content: string;
  attachments: Array<{ id: string; filename: string; content_type: string; size: number; sha256: string; description: string }>;
  allowed_mentions: unknown;
  /** `json` or `multipart`: how the execution was sent. */
  sent_as: string;
  timestamp: string;
}

const MAX_CONTENT = 2_000;
const MAX_FILES = 10;
/** A server without boosts takes files of up to 10 MiB. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_DESCRIPTION = 1_024;
/** Webhook paths, with or without the API version: /api/webhooks/{id}/{token}, /api/v10/webhooks/{id}/{token}. */
const WEBHOOK_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/(\d+)\/([^/]+)\/?$/;

/** Discord's JSON error body ({code, message}; Invalid Form Body adds `errors`). */
const discordError = (code: number, message: string, errors?: unknown) => ({ code, message, ...(errors ? { errors } : {}) });
const formError = (field: string, code: string, message: string) =>
  discordError(50035, 'Invalid Form Body', { [field]: { _errors: [{ code, message }] } });

/**
 * A fake Discord API for channel webhooks, on a real HTTP server: "Get Webhook with Token"
 * (GET /api[/v10]/webhooks/{id}/{token}: the webhook object without `user`; 401 Invalid Webhook Token 50027,
 * 404 Unknown Webhook 10015) and "Execute Webhook" (POST, same path: JSON, or multipart with `payload_json` and
 * `files[n]` whose `attachments` name their id and description; `wait=true` answers the message, else 204;
 * content up to 2,000 characters and 50035 Invalid Form Body beyond, 50006 for an empty message, at most 10
 * files of 10 MiB, 40005 Request entity too large → 413). Scripted failures match the path without the
 * version (`/api/webhooks/{id}/{token}`); a 429 is scripted with Discord's body `{message, retry_after, global}`
 * and its Retry-After / X-RateLimit-* headers.
 *
 * Control API (`/__control`): POST /webhooks (FakeDiscordWebhookRequest → FakeDiscordWebhook), DELETE
 * /webhooks/{id} (the webhook deleted: 10015 afterwards), GET /messages (oldest first), POST/DELETE /failures,
 * DELETE /state. Webhooks need no OAuth: nothing is passed upstream.
 */
export async function startFakeDiscord(): Promise<FakeServer> {
  let webhooks = new Map<string, FakeDiscordWebhook>();
  let messages: FakeDiscordMessage[] = [];
  const failures = new ScriptedFailures();
  let nextId = 1_300_000_000_000_000_000n;
  const snowflake = () => String((nextId += 1n));

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/webhooks' && req.method === 'POST') {
      const input = body as FakeDiscordWebhookRequest;
      const id = input.id ?? snowflake();
      const token = input.token ?? randomBytes(51).toString('base64url');
      const webhook: FakeDiscordWebhook = {
        id,
        token,
        name: input.name ?? 'Announcements',
        guild_id: input.guild_id === undefined ? snowflake() : input.guild_id,
        channel_id: input.channel_id ?? snowflake(),
        avatar: input.avatar ?? null,
        url: `https://discord.com/api/webhooks/${id}/${token}`,
      };
      webhooks.set(id, webhook);
      return sendJson(res, 201, webhook);
    }
    const deleted = /^\/webhooks\/(\d+)$/.exec(path);
    if (deleted && req.method === 'DELETE') {
      webhooks.delete(deleted[1]);
      return sendJson(res, 200, { deleted: true });
    }
    if (path === '/messages' && req.method === 'GET') return sendJson(res, 200, messages);
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      webhooks = new Map();
      messages = [];
      failures.clear();
      return sendJson(res, 200, { deleted: true });
    }
    sendJson(res, 404, { error: 'no such control route' });
  }

  const webhookJson = (webhook: FakeDiscordWebhook) => ({
    type: 1,
    id: webhook.id,
    name: webhook.name,
    avatar: webhook.avatar,
    channel_id: webhook.channel_id,
    guild_id: webhook.guild_id,
    application_id: null,
    token: webhook.token,
  });

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const match = WEBHOOK_PATH.exec(url.pathname);
    if (!match) {
      await drain(req);
      return sendJson(res, 404, discordError(0, '404: Not Found'));
    }
    const [, id, token] = match;
    const failure = failures.take(req.method ?? 'GET', `/api/webhooks/${id}/${token}`);
    if (await failures.before(failure, req, res)) return void (await drain(req));
    const webhook = webhooks.get(id);
    if (!webhook) {
      await drain(req);
      return sendJson(res, 404, discordError(10015, 'Unknown Webhook'));
    }
    if (webhook.token !== token) {
      await drain(req);
      return sendJson(res, 401, discordError(50027, 'Invalid Webhook Token'));
    }
    if (req.method === 'GET') return answerUnlessLost(failure, req, res, 200, webhookJson(webhook));
    if (req.method !== 'POST') {
      await drain(req);
      return sendJson(res, 405, discordError(0, '405: Method Not Allowed'));
    }
    const type = String(req.headers['content-type'] ?? '');
    let payload: Record<string, unknown>;
    let files: ReceivedFile[] = [];
    let sentAs: string;
    if (type.startsWith('application/json')) {
      payload = JSON.parse((await readRaw(req)).toString('utf8') || '{}') as Record<string, unknown>;
      sentAs = 'json';
    } else if (type.startsWith('multipart/form-data')) {
      const form = await readMultipart(req, () => 0);
      files = form.files;
      // Without payload_json the parameters are form fields of their own.
      payload = form.fields.payload_json ? (JSON.parse(form.fields.payload_json) as Record<string, unknown>) : { ...form.fields };
      sentAs = 'multipart';
    } else {
      await drain(req);
      return sendJson(res, 400, discordError(50006, 'Cannot send an empty message'));
    }
    const content = typeof payload.content === 'string' ? payload.content : '';
    if (payload.content !== undefined && typeof payload.content !== 'string') {
      return sendJson(res, 400, formError('content', 'STRING_TYPE_CONVERT', 'Could not interpret the value as string.'));
    }
    if (content.length > MAX_CONTENT) {
      return sendJson(res, 400, formError('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CONTENT} or fewer in length.`));
    }
    if (!content.trim() && files.length === 0 && !payload.embeds && !payload.components && !payload.poll) {
      return sendJson(res, 400, discordError(50006, 'Cannot send an empty message'));
    }
    if (files.length > MAX_FILES) return sendJson(res, 400, formError('files', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_FILES} or fewer.`));
    if (files.some((file) => file.size > MAX_FILE_BYTES)) return sendJson(res, 413, discordError(40005, 'Request entity too large'));
    const declared = Array.isArray(payload.attachments) ? (payload.attachments as Array<Record<string, unknown>>) : [];
    const attachments: FakeDiscordMessage['attachments'] = [];
    for (const file of files) {
      const index = /^files\[(\d+)\]$/.exec(file.field)?.[1];
      if (index === undefined) return sendJson(res, 400, formError(file.field, 'UNKNOWN_FIELD', 'Unknown file field.'));
      const entry = declared.find((candidate) => String(candidate.id) === index);
      const description = typeof entry?.description === 'string' ? entry.description : '';
      if (description.length > MAX_DESCRIPTION) {
        return sendJson(
          res,
          400,
          formError(`attachments.${index}.description`, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_DESCRIPTION} or fewer in length.`),
        );
      }
      attachments.push({
        id: snowflake(),
        filename: typeof entry?.filename === 'string' ? entry.filename : file.filename,
        content_type: file.contentType,
        size: file.size,
        sha256: file.sha256,
        description,
      });
    }
    const message: FakeDiscordMessage = {
      id: snowflake(),
      webhook_id: webhook.id,
      channel_id: webhook.channel_id,
      content,
      attachments,
      allowed_mentions: payload.allowed_mentions ?? null,
      sent_as: sentAs,
      timestamp: new Date().toISOString(),
    };
    messages.push(message);
    if (url.searchParams.get('wait') !== 'true') {
      if (failure?.drop_after_handling) return void req.socket.destroy();
      res.writeHead(204);
      return void res.end();
    }
    answerUnlessLost(failure, req, res, 200, {
      id: message.id,
      type: 0,
      content: message.content,
      channel_id: message.channel_id,
      author: { id: webhook.id, username: webhook.name, avatar: webhook.avatar, bot: true },
      attachments: attachments.map((attachment) => ({
        id: attachment.id,
        filename: attachment.filename,
        size: attachment.size,
        content_type: attachment.content_type,
        ...(attachment.description ? { description: attachment.description } : {}),
        url: `https://cdn.discordapp.com/attachments/${message.channel_id}/${attachment.id}/${attachment.filename}`,
      })),
      embeds: [],
      mentions: [],
      mention_roles: [],
      pinned: false,
      mention_everyone: false,
      tts: false,
      timestamp: message.timestamp,
      edited_timestamp: null,
      flags: 0,
      components: [],
      webhook_id: webhook.id,
    });
  }

  return startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
}
