import { Inject, Injectable } from '@nestjs/common';
import { HttpReply, Principal, SocialAccount } from '@social/contracts';
import { Problem, problems, SecretBox, SERVICE_CONFIG } from '@social/platform';
import { DataSource } from 'typeorm';
import type { PublishingConfig } from '../config.js';
import { ProviderError } from '../providers/provider-error.js';
import { ProviderApps } from '../providers/provider-apps.client.js';
import type { CredentialsConnectProvider, CredentialsSignIn, DestinationConnectProvider } from '../providers/social-provider.js';
import { upsertConnectedAccount } from './account-upsert.js';

const NAME_LIMIT = 256;
const URL_LIMIT = 2048;
/** PostgreSQL text cannot hold U+0000, and a network is not trusted to keep names short. */
const clean = (value: string, max: number) => value.replace(/\u0000/g, '').slice(0, max);

/**
 * Networks connected with the account's own credentials (bluesky: a handle
 * and an app password): connect signs in at the network within
 * PROVIDER_TIMEOUT_MS, reads the profile, and connects the identity (201) or
 * refreshes the one the workspace has (200). The password is sealed with the
 * grant (a session can be created again once the refresh token has died) and
 * never answered or logged.
 */
@Injectable()
export class CredentialConnections {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly apps: ProviderApps,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<PublishingConfig, 'PROVIDER_TIMEOUT_MS'>,
  ) {}

  /** The caller may connect in the workspace (checked by the caller). */
  async connect(
    principal: Principal,
    workspaceId: string,
    provider: CredentialsConnectProvider,
    request: { instanceUrl: string; identifier: string; password: string },
  ): Promise<HttpReply<SocialAccount>> {
    let signedIn: CredentialsSignIn;
    try {
      signedIn = await provider.signIn(request, AbortSignal.timeout(this.config.PROVIDER_TIMEOUT_MS));
    } catch (error) {
      throw signInProblem(error, provider.platform);
    }
    return this.upsert(principal, workspaceId, provider.platform, signedIn);
  }

  /**
   * Networks connected by naming where to post (discord: a webhook URL; telegram: a chat the instance's bot
   * posts in): the network checks the destination within PROVIDER_TIMEOUT_MS, then it is connected like
   * credentials (201, or 200 when the workspace has it already). Telegram is asked as the provider app's bot:
   * without an active app holding a bot token it is 422 `provider_not_configured`, as for OAuth networks.
   */
  async connectDestination(
    principal: Principal,
    workspaceId: string,
    provider: DestinationConnectProvider,
    destination: string,
  ): Promise<HttpReply<SocialAccount>> {
    const botToken = provider.usesBotToken ? await this.botToken(provider.platform) : '';
    let checked: CredentialsSignIn;
    try {
      checked = await provider.connect({ destination, botToken }, AbortSignal.timeout(this.config.PROVIDER_TIMEOUT_MS));
    } catch (error) {
      throw destinationProblem(error, provider.platform, `body.${provider.destinationField}`);
    }
    return this.upsert(principal, workspaceId, provider.platform, checked);
  }

  /** The bot token of the network's active provider app set up for bot connections; else 422 `provider_not_configured`. */
  private async botToken(platform: string): Promise<string> {
    const app = await this.apps.resolve(platform, '');
    let reason: string | undefined;
    if (!app) reason = `no active ${platform} app is configured on this instance (an administrator adds one with its bot token)`;
    else if (app.connection_mode !== 'bot') reason = `the ${platform} app is set up for ${app.connection_mode} connections, not a bot`;
    else if (!app.bot_token) reason = `the ${platform} app has no bot token`;
    if (reason) {
      throw new Problem(422, 'provider_not_configured', `body.provider ${reason}.`, {
        errors: [{ location: 'body.provider', message: reason, value: platform }],
      });
    }
    return app!.bot_token;
  }

  private upsert(
    principal: Principal,
    workspaceId: string,
    platform: string,
    signedIn: CredentialsSignIn,
  ): Promise<HttpReply<SocialAccount>> {
    const { identity } = signedIn;
    return upsertConnectedAccount(this.dataSource, this.secrets, {
      workspaceId,
      platform,
      instanceUrl: signedIn.instanceUrl,
      userId: principal.userId,
      identity: {
        externalId: clean(identity.externalId, NAME_LIMIT),
        username: clean(identity.username, NAME_LIMIT),
        displayName: clean(identity.displayName, NAME_LIMIT),
        avatarUrl: identity.avatarUrl.length <= URL_LIMIT ? identity.avatarUrl : '',
      },
      grant: signedIn.grant,
    });
  }
}

/**
 * A destination check's failure as connect answers it: one the network refuses 422 `provider_credentials_rejected` at
 * `location` with the adapter's reason (never the destination itself: a webhook URL is a secret), one that is not the
 * network's shape 422 at `location`, a bot token the network refuses 422 `provider_not_configured`, down 502, slow 504.
 */
function destinationProblem(error: unknown, platform: string, location: string): unknown {
  if (!(error instanceof ProviderError)) return error;
  if (error.networkCode === 'destination_malformed') return problems.invalid(location, error.message);
  if (error.networkCode === 'bot_token_rejected') {
    // The instance's bot, not the caller's destination: an administrator fixes the provider app.
    const reason = `the ${platform} app's bot token is refused by ${platform} (an administrator replaces it)`;
    return new Problem(422, 'provider_not_configured', `body.provider ${reason}.`, {
      errors: [{ location: 'body.provider', message: reason, value: platform }],
    });
  }
  if (error.failure === 'refused' || error.failure === 'no_account') {
    return new Problem(422, 'provider_credentials_rejected', `${location} ${error.message}.`, {
      errors: [{ location, message: error.message }],
    });
  }
  return signInProblem(error, platform);
}

/** A network's failure as connect answers it: refused credentials 422 at body.app_password, down 502, slow 504. */
function signInProblem(error: unknown, platform: string): unknown {
  if (!(error instanceof ProviderError)) return error;
  if (error.networkCode === 'destination_not_public') {
    // The server named (or the one its identity document points at) is inside a private network.
    return problems.invalid('body.instance_url', 'must name a server on a public address');
  }
  switch (error.failure) {
    case 'refused':
    case 'no_account': {
      const message = `was refused by ${platform} for this handle (wrong or revoked app password, or the account is suspended)`;
      return new Problem(422, 'provider_credentials_rejected', `body.app_password ${message}.`, {
        errors: [{ location: 'body.app_password', message }],
      });
    }
    case 'timeout':
      return new Problem(504, 'provider_timeout', `${platform} did not answer in time; try connecting again.`, { retryAfter: 5 });
    case 'unavailable':
      return new Problem(502, 'provider_unavailable', `${error.message} Try connecting again shortly.`, { retryAfter: 30 });
  }
}
