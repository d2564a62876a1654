import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  answerUnlessLost,
  CONTROL_PREFIX,
  FakeServer,
  readMultipart,
  readRaw,
  type ReceivedFile,
  ScriptedFailures,
  sendJson,
  startFakeServer,
} from './fake-network-kit.js';

/** A bot of the fake (POST /__control/bots): reached with `token` in the path, `/bot<token>/<method>`. */
export interface FakeTelegramBot {
  token: string;
  id: number;
  username: string;
  first_name: string;
}

/** A channel or group (POST /__control/chats). */
export interface FakeTelegramChat {
  id: number;
  type: 'channel' | 'group' | 'supergroup' | 'private';
  title: string;
  /** A public chat's username, without "@". */
  username?: string;
  member_count?: number;
}

/** A bot's membership of a chat (POST /__control/members); a bot without one has left it. */
export interface FakeTelegramMember {
  chat_id: number;
  user_id: number;
  status: 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';
  can_post_messages?: boolean;
  can_send_messages?: boolean;
}

/** A message a bot sent, as the fake keeps it (GET /__control/messages). */
export interface FakeTelegramMessage {
  chat_id: number;
  message_id: number;
  method: string;
  /** The text, or the caption of a media message. */
  text: string;
  /** A video's `width`, `height`, `duration` and `supports_streaming` as sent (strings from multipart, JSON values in an album). */
  media: Array<{ type: 'photo' | 'video'; size: number; sha256: string; content_type: string; video?: Record<string, unknown> }>;
  media_group_id: string | null;
  parse_mode: string | null;
  date: number;
}

const MAX_TEXT = 4_096;
const MAX_CAPTION = 1_024;
/** Photos up to 10 MB; any file a bot uploads up to 50 MB. */
const MAX_PHOTO_BYTES = 10 * 1000 * 1000;
const MAX_FILE_BYTES = 50 * 1000 * 1000;
const PARSE_MODES = ['HTML', 'MarkdownV2', 'Markdown'];

/** The Bot API's error body: `{ok: false, error_code, description, parameters?}`. */
const botError = (res: ServerResponse, status: number, description: string, parameters?: Record<string, unknown>) =>
  sendJson(res, status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });

class BadRequest extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

/**
 * A fake Telegram Bot API on a real HTTP server: `https://api.telegram.org/bot<token>/<method>` with
 * parameters as a query string, form, JSON or multipart (files uploaded as parts, `attach://<name>` in media
 * groups), answering `{ok: true, result}` or `{ok: false, error_code, description, parameters}`. Methods:
 * getMe, getChat, getChatMember, getChatMemberCount, sendMessage (1–4,096 characters), sendPhoto, sendVideo
 * (caption ≤ 1,024, photo ≤ 10 MB, files ≤ 50 MB), sendMediaGroup (2–10 photos and videos). Sending checks the
 * bot may post: in a channel an administrator with can_post_messages, in a group a member (403 "Forbidden: bot
 * is not a member of the channel chat" / "bot was kicked…", 400 "Bad Request: need administrator rights in the
 * channel chat", 400 "Bad Request: chat not found"). An unknown token is 401 Unauthorized. Scripted failures
 * match `/<method>` (e.g. `/sendMessage`); Telegram names a rate limit's wait in `parameters.retry_after` only.
 *
 * Control API (`/__control`): POST /bots (FakeTelegramBot), POST /chats (FakeTelegramChat), POST /members
 * (FakeTelegramMember), GET /messages (oldest first), POST/DELETE /failures, DELETE /state.
 */
export async function startFakeTelegram(): Promise<FakeServer> {
  let bots = new Map<string, FakeTelegramBot>();
  let chats = new Map<number, FakeTelegramChat>();
  let members = new Map<string, FakeTelegramMember>();
  let messages: FakeTelegramMessage[] = [];
  const failures = new ScriptedFailures();
  let nextGroup = 13_000_000_000_000_000;

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? JSON.parse((await readRaw(req)).toString('utf8') || '{}') : undefined;
    if (path === '/bots' && req.method === 'POST') {
      const bot = body as FakeTelegramBot;
      bots.set(bot.token, bot);
      return sendJson(res, 201, bot);
    }
    if (path === '/chats' && req.method === 'POST') {
      const chat = body as FakeTelegramChat;
      chats.set(chat.id, chat);
      return sendJson(res, 201, chat);
    }
    if (path === '/members' && req.method === 'POST') {
      const member = body as FakeTelegramMember;
      members.set(`${member.chat_id}:${member.user_id}`, member);
      return sendJson(res, 201, member);
    }
    if (path === '/messages' && req.method === 'GET') return sendJson(res, 200, messages);
    if (failures.control(path, req.method, body, res)) return;
    if (path === '/state' && req.method === 'DELETE') {
      bots = new Map();
      chats = new Map();
      members = new Map();
      messages = [];
      failures.clear();
      return sendJson(res, 200, { deleted: true });
    }
    sendJson(res, 404, { error: 'no such control route' });
  }

  /** The method's parameters, however they were sent (the Bot API takes all four ways), and any uploaded files. */
  async function parameters(req: IncomingMessage, url: URL): Promise<{ params: Record<string, unknown>; files: ReceivedFile[] }> {
    const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
    const type = String(req.headers['content-type'] ?? '');
    if (type.startsWith('multipart/form-data')) {
      const form = await readMultipart(req, () => 0);
      return { params: { ...params, ...form.fields }, files: form.files };
    }
    const raw = (await readRaw(req)).toString('utf8');
    if (type.startsWith('application/json') && raw) Object.assign(params, JSON.parse(raw) as Record<string, unknown>);
    else if (type.startsWith('application/x-www-form-urlencoded')) Object.assign(params, Object.fromEntries(new URLSearchParams(raw)));
    return { params, files: [] };
  }

  const chatOf = (value: unknown): FakeTelegramChat => {
    const key = String(value ?? '');
    const chat = key.startsWith('@')
      ? [...chats.values()].find((candidate) => candidate.username && `@${candidate.username}`.toLowerCase() === key.toLowerCase())
      : chats.get(Number(key));
    if (!chat || !/^(-?\d+|@\w+)$/.test(key)) throw new BadRequest(400, 'Bad Request: chat not found');
    return chat;
  };
  const memberOf = (chat: FakeTelegramChat, userId: number): FakeTelegramMember =>
    members.get(`${chat.id}:${userId}`) ?? { chat_id: chat.id, user_id: userId, status: 'left' };
  const chatJson = (chat: FakeTelegramChat) => ({
    id: chat.id,
    type: chat.type,
    title: chat.title,
    ...(chat.username ? { username: chat.username } : {}),
  });
  /** Whether the bot may post in the chat, with Telegram's refusal when not. */
  const requirePosting = (bot: FakeTelegramBot, chat: FakeTelegramChat) => {
    const member = memberOf(chat, bot.id);
    const kind = chat.type === 'channel' ? 'channel' : 'group';
    if (member.status === 'kicked') throw new BadRequest(403, `Forbidden: bot was kicked from the ${kind} chat`);
    if (member.status === 'left') throw new BadRequest(403, `Forbidden: bot is not a member of the ${kind} chat`);
    if (chat.type === 'channel' && !(member.status === 'creator' || (member.status === 'administrator' && member.can_post_messages))) {
      throw new BadRequest(400, 'Bad Request: need administrator rights in the channel chat');
    }
    if (member.status === 'restricted' && !member.can_send_messages)
      throw new BadRequest(400, 'Bad Request: not enough rights to send text messages to the chat');
  };
  const send = (chat: FakeTelegramChat, entry: Omit<FakeTelegramMessage, 'chat_id' | 'message_id' | 'date'>) => {
    const message: FakeTelegramMessage = {
      chat_id: chat.id,
      message_id: messages.filter((candidate) => candidate.chat_id === chat.id).length + 1,
      date: Math.floor(Date.now() / 1000),
      ...entry,
    };
    messages.push(message);
    return message;
  };
  const messageJson = (chat: FakeTelegramChat, message: FakeTelegramMessage) => {
    const [media] = message.media;
    return {
      message_id: message.message_id,
      date: message.date,
      chat: chatJson(chat),
      ...(chat.type === 'channel' ? { sender_chat: chatJson(chat) } : {}),
      ...(message.media_group_id ? { media_group_id: message.media_group_id } : {}),
      ...(media
        ? {
            ...(message.text ? { caption: message.text } : {}),
            ...(media.type === 'photo'
              ? {
                  photo: [
                    {
                      file_id: `photo-${message.message_id}`,
                      file_unique_id: `p${message.message_id}`,
                      width: 64,
                      height: 48,
                      file_size: media.size,
                    },
                  ],
                }
              : {
                  video: {
                    file_id: `video-${message.message_id}`,
                    file_unique_id: `v${message.message_id}`,
                    width: 0,
                    height: 0,
                    duration: 0,
                    file_size: media.size,
                  },
                }),
          }
        : { text: message.text }),
    };
  };
  const textParam = (params: Record<string, unknown>, name: string, max: number, tooLong: string): string => {
    const value = params[name] === undefined ? '' : String(params[name]);
    if (params.parse_mode !== undefined && !PARSE_MODES.includes(String(params.parse_mode))) {
      throw new BadRequest(400, `Bad Request: unsupported parse_mode`);
    }
    if (value.length > max) throw new BadRequest(400, tooLong);
    return value;
  };
  const videoOptions = (params: Record<string, unknown>) =>
    Object.fromEntries(
      ['width', 'height', 'duration', 'supports_streaming'].filter((key) => params[key] !== undefined).map((key) => [key, params[key]]),
    );
  const upload = (files: ReceivedFile[], name: string, type: 'photo' | 'video', params: Record<string, unknown>) => {
    const file = files.find((candidate) => candidate.field === name);
    if (!file) throw new BadRequest(400, `Bad Request: there is no ${type} in the request`);
    if (file.size > MAX_FILE_BYTES) throw new BadRequest(413, 'Request Entity Too Large');
    if (type === 'photo' && file.size > MAX_PHOTO_BYTES) throw new BadRequest(400, 'Bad Request: PHOTO_SAVE_FILE_INVALID');
    return {
      type,
      size: file.size,
      sha256: file.sha256,
      content_type: file.contentType,
      ...(type === 'video' ? { video: videoOptions(params) } : {}),
    };
  };

  async function method(bot: FakeTelegramBot, name: string, params: Record<string, unknown>, files: ReceivedFile[]): Promise<unknown> {
    switch (name) {
      case 'getMe':
        return { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username, can_join_groups: true };
      case 'getChat': {
        const chat = chatOf(params.chat_id);
        if (chat.type !== 'channel' && memberOf(chat, bot.id).status === 'left') throw new BadRequest(400, 'Bad Request: chat not found');
        return { ...chatJson(chat), accent_color_id: 0, max_reaction_count: 11 };
      }
      case 'getChatMember': {
        const chat = chatOf(params.chat_id);
        const userId = Number(params.user_id);
        if (!Number.isSafeInteger(userId)) throw new BadRequest(400, 'Bad Request: invalid user_id specified');
        const member = memberOf(chat, userId);
        const user =
          userId === bot.id
            ? { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username }
            : { id: userId, is_bot: false, first_name: 'Someone' };
        const base = { status: member.status, user };
        if (member.status === 'administrator') {
          return {
            ...base,
            can_be_edited: false,
            is_anonymous: false,
            can_manage_chat: true,
            can_delete_messages: true,
            can_restrict_members: true,
            can_invite_users: true,
            ...(chat.type === 'channel' ? { can_post_messages: member.can_post_messages === true, can_edit_messages: true } : {}),
          };
        }
        if (member.status === 'restricted')
          return { ...base, is_member: true, can_send_messages: member.can_send_messages === true, until_date: 0 };
        return base;
      }
      case 'getChatMemberCount':
        return chatOf(params.chat_id).member_count ?? 42;
      case 'sendMessage': {
        const chat = chatOf(params.chat_id);
        requirePosting(bot, chat);
        const text = textParam(params, 'text', MAX_TEXT, 'Bad Request: message is too long');
        if (!text.trim()) throw new BadRequest(400, 'Bad Request: message text is empty');
        return messageJson(
          chat,
          send(chat, {
            method: name,
            text,
            media: [],
            media_group_id: null,
            parse_mode: params.parse_mode ? String(params.parse_mode) : null,
          }),
        );
      }
      case 'sendPhoto':
      case 'sendVideo': {
        const chat = chatOf(params.chat_id);
        requirePosting(bot, chat);
        const type = name === 'sendPhoto' ? 'photo' : 'video';
        const caption = textParam(params, 'caption', MAX_CAPTION, 'Bad Request: message caption is too long');
        const media = upload(files, type, type, params);
        return messageJson(
          chat,
          send(chat, {
            method: name,
            text: caption,
            media: [media],
            media_group_id: null,
            parse_mode: params.parse_mode ? String(params.parse_mode) : null,
          }),
        );
      }
      case 'sendMediaGroup': {
        const chat = chatOf(params.chat_id);
        requirePosting(bot, chat);
        let items: Array<Record<string, unknown>>;
        try {
          items = JSON.parse(String(params.media ?? '')) as Array<Record<string, unknown>>;
        } catch {
          throw new BadRequest(400, "Bad Request: can't parse media JSON object");
        }
        if (!Array.isArray(items) || items.length < 2 || items.length > 10)
          throw new BadRequest(400, 'Bad Request: wrong number of media in the album');
        const sent = items.map((item) => {
          if (item.type !== 'photo' && item.type !== 'video') throw new BadRequest(400, 'Bad Request: unsupported media type in the album');
          const reference = /^attach:\/\/(\S+)$/.exec(String(item.media ?? ''));
          if (!reference) throw new BadRequest(400, 'Bad Request: wrong file identifier/HTTP URL specified');
          return {
            caption: textParam(item, 'caption', MAX_CAPTION, 'Bad Request: message caption is too long'),
            media: upload(files, reference[1], item.type, item),
          };
        });
        const group = String((nextGroup += 1));
        return sent.map((item) =>
          messageJson(chat, send(chat, { method: name, text: item.caption, media: [item.media], media_group_id: group, parse_mode: null })),
        );
      }
      default:
        throw new BadRequest(404, 'Not Found');
    }
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    const { params, files } = await parameters(req, url);
    if (!match) return botError(res, 404, 'Not Found');
    const [, token, name] = match;
    const failure = failures.take(req.method ?? 'POST', `/${name}`);
    if (await failures.before(failure, req, res)) return;
    const bot = bots.get(token);
    if (!bot) return botError(res, 401, 'Unauthorized');
    let result: unknown;
    try {
      result = await method(bot, name, params, files);
    } catch (error) {
      if (error instanceof BadRequest) return botError(res, error.status, error.description);
      throw error;
    }
    answerUnlessLost(failure, req, res, 200, { ok: true, result });
  }

  return startFakeServer((req, res, url) =>
    url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? control(req, res, url.pathname.slice(CONTROL_PREFIX.length)) : api(req, res, url),
  );
}
