import { deliveryCall, rejected } from '../delivery-failure.js';
import { partTextLinkOnce } from '../outgoing-text.js';
import { multipartFilesStream, type StreamedFile, uploadFilename, uploadTimeoutMs } from '../multipart-stream.js';
import { pick, text } from '../oauth/oauth-network.js';
import type { ProviderApiOrigins } from '../provider-api-origins.js';
import { capabilityUnavailable, ProviderError } from '../provider-error.js';
import { type FetchFunction, type ProviderRequest, ProviderHttp } from '../provider-http.js';
import { streamingFetch } from '../streaming-fetch.js';
import type { Logger } from 'pino';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  CredentialsSignIn,
  DestinationConnectProvider,
  FollowOutcome,
  FollowRecommendation,
  OutgoingMedia,
  OutgoingPost,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPart,
  PublishedPost,
} from '../social-provider.js';

const API = 'https://api.telegram.org';
/** A media message's caption takes at most 1,024 characters (sendPhoto, sendVideo, sendMediaGroup). */
export const TELEGRAM_CAPTION_LIMIT = 1_024;
/** sendMediaGroup sends 2–10 photos and videos as one album. */
const MEDIA_GROUP_MAX = 10;

/** What the sealed grant of a Telegram account holds: never the bot token (the provider app's, read at each use). */
export interface TelegramGrant extends ProviderGrant {
  /** The chat's public username (without "@"), for message links; "" for a private chat. */
  chatUsername: string;
  chatType: string;
}

/** A message the Bot API answered: its id; 0 when it answered none. */
const messageId = (message: unknown) => {
  const id = pick(message, 'message_id');
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : 0;
};

/** A 429's wait as the Bot API names it: `{ok: false, error_code: 429, parameters: {retry_after}}` (seconds). */
const retryAfterOf = (body: unknown) => pick(body, 'parameters', 'retry_after');

/**
 * Telegram through the Bot API as the instance's bot (README.md beside this file): the bot token is the
 * telegram provider app's, read at connect and at each use, never kept with the account. Connecting checks the
 * chat (getMe, getChat, getChatMember): a channel where the bot is an administrator allowed to post, or a group
 * where it may send messages. The account's external id is the chat's numeric id.
 *
 * Text goes as plain text (no `parse_mode`): our text is not markup, and plain text is shown exactly as written
 * (HTML would need `&`, `<` and `>` escaped and count the limits after parsing). One photo or video is
 * sendPhoto/sendVideo with the text as its caption, 2–10 an album (sendMediaGroup, `attach://` files), all
 * uploaded as multipart; a text longer than a caption (1,024) follows the media as a message of its own.
 *
 * The Bot API cannot read a chat's history: a lost answer is never reconciled (findPost 'unknown'). Account
 * metrics are the chat's member count (getChatMemberCount); no post metrics, no follows.
 *
 * The bot token is in the URL path: every call names the path logs show instead (`/bot…/<method>`). Telegram
 * names a rate limit's wait only in its error body (`parameters.retry_after`): every call tells ProviderHttp
 * where (`retryAfterOf`).
 */
export class TelegramProvider implements DestinationConnectProvider {
  readonly platform = 'telegram';
  readonly connectMode = 'destination';
  readonly destinationField = 'chat_id';
  readonly usesBotToken = true;
  private readonly http: ProviderHttp;

  constructor(
    origins: ProviderApiOrigins,
    private readonly timeoutMs: number,
    fetchFn: FetchFunction = fetch,
    streamFetchFn: FetchFunction = streamingFetch,
    logger?: Logger,
  ) {
    this.http = new ProviderHttp(origins, logger, fetchFn, streamFetchFn);
  }

  async connect(request: { destination: string; botToken: string }, signal: AbortSignal): Promise<CredentialsSignIn> {
    const { botToken } = request;
    let bot: unknown;
    try {
      bot = await this.api(botToken, 'getMe', {}, signal);
    } catch (error) {
      if (error instanceof ProviderError && error.failure === 'refused') {
        throw new ProviderError('refused', "telegram refused the telegram app's bot token", 'bot_token_rejected', error.call);
      }
      throw error;
    }
    const botId = pick(bot, 'id');
    if (typeof botId !== 'number') throw new ProviderError('unavailable', 'telegram answered getMe without the bot id.');
    const chat = await this.refusedAs('was refused by telegram: no such chat, or the bot is not in it', () =>
      this.api(botToken, 'getChat', { chat_id: request.destination }, signal),
    );
    const chatId = pick(chat, 'id');
    const type = text(pick(chat, 'type'));
    if (typeof chatId !== 'number') throw new ProviderError('unavailable', 'telegram answered getChat without the chat id.');
    if (type !== 'channel' && type !== 'group' && type !== 'supergroup') {
      throw new ProviderError('refused', 'names a private chat; name a channel or a group the bot posts in');
    }
    const member = await this.refusedAs('was refused by telegram: the bot is not a member of this chat', () =>
      this.api(botToken, 'getChatMember', { chat_id: chatId, user_id: botId }, signal),
    );
    const refusal = postingRefusal(type, member);
    if (refusal) throw new ProviderError('refused', refusal);
    const title = text(pick(chat, 'title'));
    const username = text(pick(chat, 'username'));
    const grant: TelegramGrant = { accessToken: '', chatUsername: username, chatType: type };
    return {
      identity: {
        externalId: String(chatId),
        username: username ? `@${username}` : title || String(chatId),
        displayName: title || (username ? `@${username}` : String(chatId)),
        avatarUrl: '',
      },
      grant,
      instanceUrl: '',
    };
  }

  /** Each part as its messages, in order: a long text or a thread's segments are consecutive messages, not replies. */
  async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const token = botToken(account);
    const parts: PublishedPart[] = [];
    let sent = 0;
    for (const part of post.parts) {
      const body = partTextLinkOnce(part);
      const captioned = body.length <= TELEGRAM_CAPTION_LIMIT;
      let first = 0;
      try {
        if (part.media.length > 0) {
          first = await this.sendMedia(account, token, part.media, captioned ? body : '');
          sent += 1;
        }
        if (part.media.length === 0 || (!captioned && body)) {
          const message = await this.create(token, 'sendMessage', { json: { chat_id: account.externalId, text: body } }, this.timeoutMs);
          first ||= messageId(message);
          sent += 1;
        }
      } catch (error) {
        if (sent > 0 && error instanceof DeliveryError && error.failure.outcome !== 'ambiguous') throw partlyPublished(error);
        throw error;
      }
      if (!first) throw unreadable();
      parts.push(this.published(account, first));
    }
    return { ...parts[0], parts };
  }

  /** The Bot API cannot read a chat's messages: whether a lost answer made one cannot be told. */
  async findPost(_account: ProviderAccount, _post: OutgoingPost, _since: Date): Promise<PublishedPost | null | 'unknown'> {
    return 'unknown';
  }

  /**
   * The chat's members as followers (getChatMemberCount). Telegram tells a bot nothing it follows or how many
   * messages a chat holds: both 0.
   */
  async fetchAccountMetrics(account: ProviderAccount): Promise<AccountMetrics> {
    const count = await this.api(
      botToken(account),
      'getChatMemberCount',
      { chat_id: account.externalId },
      AbortSignal.timeout(this.timeoutMs),
    );
    return { followers: typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : 0, following: 0, posts: 0 };
  }

  async fetchPostMetrics(_account: ProviderAccount, _externalIds: string[]): Promise<PostMetrics[]> {
    throw capabilityUnavailable(this.platform, 'Post metrics');
  }

  async fetchFollowRecommendations(_account: ProviderAccount, _limit: number): Promise<FollowRecommendation[]> {
    throw capabilityUnavailable(this.platform, 'Follow recommendations');
  }

  async follow(_account: ProviderAccount, _remoteAccountId: string): Promise<FollowOutcome> {
    throw capabilityUnavailable(this.platform, 'Following accounts');
  }

  /** One photo or video (sendPhoto / sendVideo), or an album of 2–10 (sendMediaGroup); the first message's id. */
  private async sendMedia(account: ProviderAccount, token: string, media: OutgoingMedia[], caption: string): Promise<number> {
    if (media.length > MEDIA_GROUP_MAX) {
      throw rejected(
        'too_many_media',
        `A telegram message carries at most ${MEDIA_GROUP_MAX} photos and videos; this one has ${media.length}.`,
      );
    }
    const size = media.reduce((total, item) => total + item.size, 0);
    const timeout = uploadTimeoutMs(this.timeoutMs, size);
    // Opened before the request leaves: storage that cannot answer fails the call with nothing sent.
    const files: StreamedFile[] = [];
    for (const [index, item] of media.entries()) {
      files.push({
        name: media.length === 1 ? (item.kind === 'video' ? 'video' : 'photo') : `file${index}`,
        filename: uploadFilename(item.mimeType),
        contentType: item.mimeType || 'application/octet-stream',
        stream: await item.open(),
      });
    }
    const fields: Record<string, string> = { chat_id: account.externalId };
    if (media.length === 1) {
      const [item] = media;
      if (caption) fields.caption = caption;
      if (item.kind === 'video') for (const [name, value] of Object.entries(videoDetails(item))) fields[name] = String(value);
      const stream = multipartFilesStream(fields, files);
      return messageId(await this.create(token, item.kind === 'video' ? 'sendVideo' : 'sendPhoto', { stream }, timeout));
    }
    // InputMediaPhoto / InputMediaVideo; the album's caption is its first item's.
    fields.media = JSON.stringify(
      media.map((item, index) => ({
        type: item.kind === 'video' ? 'video' : 'photo',
        media: `attach://file${index}`,
        ...(index === 0 && caption ? { caption } : {}),
        ...(item.kind === 'video' ? videoDetails(item) : {}),
      })),
    );
    const messages = await this.create(token, 'sendMediaGroup', { stream: multipartFilesStream(fields, files) }, timeout);
    return Array.isArray(messages) ? messageId(messages[0]) : 0;
  }

  /** A call that sends a message, its failure a delivery outcome (the Bot API's statuses: 400 content, 401/403 the bot, 429 wait). */
  private create(token: string, method: string, body: Pick<ProviderRequest, 'json' | 'stream'>, timeoutMs: number): Promise<unknown> {
    return deliveryCall(this.platform, true, () => this.call(token, method, body, AbortSignal.timeout(timeoutMs)));
  }

  /** A Bot API method with JSON parameters; its `result`. */
  private api(token: string, method: string, parameters: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    return this.call(token, method, { json: parameters }, signal);
  }

  /** `POST https://api.telegram.org/bot<token>/<method>`: `result` of an `{ok: true}` answer; a ProviderError otherwise. */
  private async call(token: string, method: string, body: Pick<ProviderRequest, 'json' | 'stream'>, signal: AbortSignal): Promise<unknown> {
    const answer = await this.http.json(
      this.platform,
      { method: 'POST', url: `${API}/bot${token}/${method}`, loggedPath: `/bot…/${method}`, retryAfterOf, ...body },
      signal,
    );
    if (pick(answer, 'ok') !== true)
      throw new ProviderError('unavailable', `telegram answered ${method} without a result.`, undefined, { status: 200, sent: true });
    return pick(answer, 'result');
  }

  /** A refusal of a connect check, with the reason connect answers. */
  private async refusedAs(reason: string, call: () => Promise<unknown>): Promise<unknown> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ProviderError && error.failure === 'refused') throw new ProviderError('refused', reason, undefined, error.call);
      throw error;
    }
  }

  private published(account: ProviderAccount, id: number): PublishedPart {
    const username = (account.grant as Partial<TelegramGrant> | null)?.chatUsername ?? '';
    return { externalId: String(id), externalUrl: /^[A-Za-z0-9_]{4,32}$/.test(username) ? `https://t.me/${username}/${id}` : '' };
  }
}

/**
 * Why the bot may not post in the chat, per its ChatMember: in a channel only an administrator with
 * `can_post_messages` posts; in a group an administrator or member does, a restricted member only with
 * `can_send_messages`. undefined when it may.
 */
function postingRefusal(type: string, member: unknown): string | undefined {
  const status = text(pick(member, 'status'));
  if (type === 'channel') {
    if (status === 'creator' || (status === 'administrator' && pick(member, 'can_post_messages') === true)) return undefined;
    return "was refused: the instance's bot must be an administrator of the channel allowed to post messages";
  }
  if (status === 'creator' || status === 'administrator' || status === 'member') return undefined;
  if (status === 'restricted' && pick(member, 'is_member') === true && pick(member, 'can_send_messages') === true) return undefined;
  return "was refused: the instance's bot must be a member of the group allowed to send messages";
}

/** A video's sides and duration where known (Telegram lays the message out before it loads), and that it streams. */
function videoDetails(media: OutgoingMedia): Record<string, number | boolean> {
  return {
    supports_streaming: true,
    ...(media.width > 0 && media.height > 0 ? { width: media.width, height: media.height } : {}),
    ...(media.durationMs > 0 ? { duration: Math.round(media.durationMs / 1000) } : {}),
  };
}

function botToken(account: ProviderAccount): string {
  const token = account.grant?.accessToken;
  if (!token) {
    throw new DeliveryError({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_not_configured',
      message: 'No telegram bot token is configured to reach the account.',
      httpStatus: 0,
    });
  }
  return token;
}

const unreadable = () =>
  new DeliveryError({
    outcome: 'ambiguous',
    code: 'provider_answer_unreadable',
    message: 'telegram answered the message without its id.',
    httpStatus: 200,
  });

/** A later message of a post failed after earlier ones went out: the post is partly in the chat. */
function partlyPublished(error: DeliveryError): DeliveryError {
  return new DeliveryError({
    outcome: 'ambiguous',
    code: 'provider_partially_published',
    message: `${error.failure.message} Earlier messages of the post are in the chat already; it will not be sent again.`,
    httpStatus: error.failure.httpStatus,
  });
}
