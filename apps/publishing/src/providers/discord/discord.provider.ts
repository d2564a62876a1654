import { deliveryCall } from '../delivery-failure.js';
import { partTextLinkOnce } from '../outgoing-text.js';
import { multipartFilesStream, uploadFilename, uploadTimeoutMs } from '../multipart-stream.js';
import { httpUrl, pick, text } from '../oauth/oauth-network.js';
import type { ProviderApiOrigins } from '../provider-api-origins.js';
import { capabilityUnavailable, ProviderError } from '../provider-error.js';
import { type FetchFunction, ProviderHttp } from '../provider-http.js';
import { streamingFetch } from '../streaming-fetch.js';
import type { Logger } from 'pino';
import { DeliveryError } from '../social-provider.js';
import type {
  AccountMetrics,
  CredentialsSignIn,
  DestinationConnectProvider,
  FollowOutcome,
  FollowRecommendation,
  OutgoingPost,
  OutgoingPostPart,
  PostMetrics,
  ProviderAccount,
  ProviderGrant,
  PublishedPart,
  PublishedPost,
} from '../social-provider.js';

/** What logs show of a webhook's URL: never its token. */
const LOGGED_PATH = '/api/webhooks/…';
/** The API version every call names (Discord's docs: unversioned calls get a deprecated default). */
const API = 'https://discord.com/api/v10';
/**
 * An incoming webhook's URL as Discord hands it out: `https://discord.com/api/webhooks/{id}/{token}` (also the
 * legacy discordapp.com host and versioned paths). The id is a snowflake; the token is URL-safe.
 */
const WEBHOOK_URL = /^https:\/\/(?:discord\.com|discordapp\.com)\/api(?:\/v\d{1,2})?\/webhooks\/(\d{17,20})\/([A-Za-z0-9_-]{20,100})\/?$/;
/** Discord's webhook types: only an incoming webhook can be executed with its token. */
const INCOMING_WEBHOOK = 1;

/** What the sealed grant of a Discord account holds: the webhook URL (the secret) and where it posts. */
export interface DiscordGrant extends ProviderGrant {
  /** The server the channel belongs to, for message links; "" when the webhook object named none. */
  guildId: string;
  channelId: string;
}

/** The webhook's id and token, from the URL a user pasted; undefined when it is not one. */
export function parseWebhookUrl(url: string): { id: string; token: string } | undefined {
  const [, id, token] = WEBHOOK_URL.exec(url.trim()) ?? [];
  return id && token ? { id, token } : undefined;
}

/**
 * Discord through a channel's incoming webhook (README.md beside this file). Connecting reads the webhook with
 * its token ("Get Webhook with Token"): its id is the account's external id, its name the username; the URL is
 * the grant's access token, sealed, never answered or logged. Publishing executes the webhook with `wait=true`
 * (the created message answered): JSON `{content}`, or multipart with `payload_json` and `files[n]` whose
 * `attachments` carry the alt text. A post's text never pings anyone (`allowed_mentions.parse` empty).
 *
 * Discord cannot list a webhook's messages, so a lost answer is never reconciled (findPost 'unknown': manual
 * resolution, never a resend); it offers a webhook no metrics and no follows.
 *
 * The webhook's token is in the URL path: every call names the path logs show instead (`loggedPath`).
 */
export class DiscordProvider implements DestinationConnectProvider {
  readonly platform = 'discord';
  readonly connectMode = 'destination';
  readonly destinationField = 'webhook_url';
  readonly usesBotToken = false;
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

  async connect(request: { destination: string }, signal: AbortSignal): Promise<CredentialsSignIn> {
    const webhook = parseWebhookUrl(request.destination);
    if (!webhook) {
      throw new ProviderError(
        'refused',
        "must be a Discord channel's incoming webhook URL (https://discord.com/api/webhooks/{id}/{token})",
        'destination_malformed',
      );
    }
    const url = `${API}/webhooks/${webhook.id}/${webhook.token}`;
    let answer: unknown;
    try {
      answer = await this.http.json(this.platform, { method: 'GET', url, loggedPath: LOGGED_PATH }, signal);
    } catch (error) {
      if (error instanceof ProviderError && error.failure === 'refused') {
        // 401 Invalid Webhook Token (50027), 404 Unknown Webhook (10015).
        throw new ProviderError('refused', 'was refused by discord: no such webhook, or its token was reset', undefined, error.call);
      }
      throw error;
    }
    const id = text(pick(answer, 'id'));
    const channelId = text(pick(answer, 'channel_id'));
    if (id !== webhook.id || !channelId) throw new ProviderError('unavailable', 'discord answered a webhook we cannot read.');
    if (pick(answer, 'type') !== INCOMING_WEBHOOK) {
      throw new ProviderError('refused', 'is not an incoming webhook: Discord only lets incoming webhooks post');
    }
    const name = text(pick(answer, 'name')) || `webhook ${id}`;
    const avatar = text(pick(answer, 'avatar'));
    const grant: DiscordGrant = { accessToken: url, guildId: text(pick(answer, 'guild_id')), channelId };
    return {
      identity: {
        externalId: id,
        username: name,
        displayName: name,
        avatarUrl: /^[a-z0-9_]{1,64}$/i.test(avatar) ? httpUrl(`https://cdn.discordapp.com/avatars/${id}/${avatar}.png`) : '',
      },
      grant,
      // The channel is not a server of its own: instance_url stays "" (it is an origin elsewhere); the channel is in the grant.
      instanceUrl: '',
    };
  }

  /** Each part as one message, in order: a long text or a thread's segments are consecutive messages (a webhook cannot reply). */
  async publish(account: ProviderAccount, post: OutgoingPost): Promise<PublishedPost> {
    const grant = discordGrant(account);
    const parts: PublishedPart[] = [];
    for (const part of post.parts) {
      try {
        parts.push(await this.execute(grant, part));
      } catch (error) {
        if (parts.length > 0 && error instanceof DeliveryError && error.failure.outcome !== 'ambiguous') {
          // Sending again would repeat the messages already in the channel.
          throw partlyPublished(error);
        }
        throw error;
      }
    }
    return { ...parts[0], parts };
  }

  /** Discord cannot list a webhook's messages: whether a lost answer made one cannot be told. */
  async findPost(_account: ProviderAccount, _post: OutgoingPost, _since: Date): Promise<PublishedPost | null | 'unknown'> {
    return 'unknown';
  }

  async fetchAccountMetrics(_account: ProviderAccount): Promise<AccountMetrics> {
    throw capabilityUnavailable(this.platform, 'Account metrics');
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

  /** One message: Execute Webhook with `wait=true`, so Discord answers the message it created. */
  private async execute(grant: DiscordGrant, part: OutgoingPostPart): Promise<PublishedPart> {
    const url = `${grant.accessToken}?wait=true`;
    // Discord shows no link cards of ours: title and link go into the text.
    const payload: Record<string, unknown> = { content: partTextLinkOnce(part), allowed_mentions: { parse: [] } };
    let answer: unknown;
    if (part.media.length === 0) {
      answer = await this.create(() =>
        this.http.json(this.platform, { method: 'POST', url, json: payload, loggedPath: LOGGED_PATH }, AbortSignal.timeout(this.timeoutMs)),
      );
    } else {
      payload.attachments = part.media.map((media, index) => ({
        id: index,
        filename: uploadFilename(media.mimeType),
        ...(media.altText ? { description: media.altText } : {}),
      }));
      // Opened before the request leaves: storage that cannot answer fails the call with nothing sent.
      const files = [];
      for (const [index, media] of part.media.entries()) {
        files.push({
          name: `files[${index}]`,
          filename: uploadFilename(media.mimeType),
          contentType: media.mimeType || 'application/octet-stream',
          stream: await media.open(),
        });
      }
      const size = part.media.reduce((total, media) => total + media.size, 0);
      const stream = multipartFilesStream({ payload_json: JSON.stringify(payload) }, files);
      answer = await this.create(() =>
        this.http.json(
          this.platform,
          { method: 'POST', url, stream, loggedPath: LOGGED_PATH },
          AbortSignal.timeout(uploadTimeoutMs(this.timeoutMs, size)),
        ),
      );
    }
    const id = text(pick(answer, 'id'));
    if (!id) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'provider_answer_unreadable',
        message: 'discord answered the message without its id.',
        httpStatus: 200,
      });
    }
    const channelId = text(pick(answer, 'channel_id')) || grant.channelId;
    const guildId = text(pick(answer, 'guild_id')) || grant.guildId;
    return { externalId: id, externalUrl: guildId ? `https://discord.com/channels/${guildId}/${channelId}/${id}` : '' };
  }

  /**
   * A call that creates a message, its failure as a delivery outcome. Discord answers an unknown webhook (10015:
   * deleted, or its token reset) with 404: the channel must be connected again, not the post changed. 413
   * (40005, request entity too large) says the files are too large.
   */
  private async create(call: () => Promise<unknown>): Promise<unknown> {
    return deliveryCall(this.platform, true, async () => {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof ProviderError) || error.failure !== 'refused') throw error;
        if (error.call?.status === 404) {
          throw new DeliveryError({
            outcome: 'rejected',
            kind: 'auth',
            code: 'provider_auth_rejected',
            message: "discord no longer knows the channel's webhook (deleted or reset in Discord); connect the channel again.",
            httpStatus: 404,
          });
        }
        if (error.call?.status === 413)
          throw new ProviderError('refused', 'discord refused the files as too large.', 'media_too_large', error.call);
        throw error;
      }
    });
  }
}

function discordGrant(account: ProviderAccount): DiscordGrant {
  const grant = account.grant as Partial<DiscordGrant> | null;
  if (!grant?.accessToken || !parseWebhookUrl(grant.accessToken)) {
    throw new DeliveryError({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_auth_rejected',
      message: 'The account holds no webhook; connect the channel again.',
      httpStatus: 0,
    });
  }
  return { accessToken: grant.accessToken, guildId: grant.guildId ?? '', channelId: grant.channelId ?? '' };
}

/** A later message of a post failed after earlier ones went out: the post is partly in the channel. */
function partlyPublished(error: DeliveryError): DeliveryError {
  return new DeliveryError({
    outcome: 'ambiguous',
    code: 'provider_partially_published',
    message: `${error.failure.message} Earlier messages of the post are in the channel already; it will not be sent again.`,
    httpStatus: error.failure.httpStatus,
  });
}
