import { Inject, Injectable } from '@nestjs/common';
import {
  CompleteSocialAccountConnectionQuery,
  Principal,
  ResolvedProviderApp,
  HttpReply,
  SocialAccount,
  SocialAccountAuthorization,
} from '@social/contracts';
import { AccessControl, changedRows, InstanceSettings, Problem, problems, SecretBox, SERVICE_CONFIG } from '@social/platform';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { PublishingConfig } from '../config.js';
import { ProviderApps } from '../providers/provider-apps.client.js';
import { ProviderError } from '../providers/provider-error.js';
import { ProviderRegistry } from '../providers/provider-registry.js';
import type { ConnectedIdentity, ConnectOptions, OAuthClient, OAuthConnectProvider, ProviderGrant } from '../providers/social-provider.js';
import { upsertConnectedAccount } from './account-upsert.js';

/** How long a user has to come back from the network. */
const STATE_LIFETIME_MS = 10 * 60_000;

interface StateRow {
  id: string;
  workspace_id: string;
  platform: string;
  instance_url: string;
  redirect_uri: string;
  sealed_code_verifier: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const toClient = (app: ResolvedProviderApp): OAuthClient => ({
  clientId: app.client_id,
  clientSecret: app.client_secret,
  instanceUrl: app.instance_url,
});

/** A state that cannot be used: the same answer whatever the reason, so none is revealed. */
const invalidState = () =>
  new Problem(
    422,
    'oauth_state_invalid',
    'query.state is unknown, expired, already used, or was issued to someone else or for another network.',
    {
      errors: [
        { location: 'query.state', message: 'is unknown, expired, already used, or was issued to someone else or for another network' },
      ],
    },
  );

/**
 * The OAuth authorization-code flow of real networks (docs/decisions.md): connect
 * issues a single-use state bound to the caller, the workspace and the network
 * and answers where to send the user; the callback spends the state, trades
 * the code for tokens at the network, reads who granted them, and connects or
 * refreshes that account. Tokens are sealed at rest and never leave the service.
 */
@Injectable()
export class OAuthConnections {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly apps: ProviderApps,
    private readonly registry: ProviderRegistry,
    private readonly settings: InstanceSettings,
    private readonly secrets: SecretBox,
    @Inject(SERVICE_CONFIG) private readonly config: PublishingConfig,
  ) {}

  /** The caller may connect in the workspace (checked by the caller); `instanceUrl` is the normalized server, "" without one. */
  async begin(
    principal: Principal,
    workspaceId: string,
    provider: OAuthConnectProvider,
    instanceUrl: string,
  ): Promise<SocialAccountAuthorization> {
    const app = await this.activeApp(provider, instanceUrl, 'body.provider');
    const redirectUri =
      app.redirect_uri || `${this.settings.string('public_app_url').replace(/\/+$/, '')}/social-accounts/callback/${provider.platform}`;
    const state = randomBytes(32).toString('base64url');
    const verifier = provider.usesPkce ? randomBytes(32).toString('base64url') : undefined;
    const id = uuidv7();
    const now = new Date();
    // Spent and expired states open nothing: dropping them here keeps the table small without a sweeper.
    await this.dataSource.query(`DELETE FROM oauth_states WHERE expires_at < now()`);
    await this.dataSource.query(
      `INSERT INTO oauth_states (id, state_hash, user_id, workspace_id, platform, instance_url, redirect_uri, sealed_code_verifier,
         created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        id,
        sha256(state),
        principal.userId,
        workspaceId,
        provider.platform,
        instanceUrl,
        redirectUri,
        verifier ? this.secrets.seal(verifier, `oauth_states:${id}`) : '',
        now,
        new Date(now.getTime() + STATE_LIFETIME_MS),
      ],
    );
    const codeChallenge = verifier ? createHash('sha256').update(verifier).digest('base64url') : undefined;
    return {
      authorization_url: provider.authorizationUrl(toClient(app), { redirectUri, state, codeChallenge }, this.connectOptions(provider)),
      state,
    };
  }

  async complete(principal: Principal, platform: string, query: CompleteSocialAccountConnectionQuery): Promise<HttpReply<SocialAccount>> {
    const provider = this.registry.get(platform);
    if (provider?.connectMode !== 'oauth') throw problems.notFound('No network connects through this callback.');
    const state = await this.spendState(principal.userId, provider.platform, query.state);
    // Memberships may have changed since connect: the role is checked again, against current memberships.
    await this.access.requireWorkspace(principal, state.workspace_id, 'editor', 'body');
    const app = await this.activeApp(provider, state.instance_url, 'path.provider');
    const client = toClient(app);
    // One budget for both calls, below the gateway's timeout.
    const signal = AbortSignal.timeout(this.config.PROVIDER_TIMEOUT_MS);
    const codeVerifier = this.openVerifier(state);
    let step: 'exchange' | 'profile' = 'exchange';
    let grant: ProviderGrant;
    let identities: ConnectedIdentity[];
    // Read again here, not kept from the connect: a setting changed meanwhile makes the exchange fail cleanly (the code
    // was issued for the other login), and the person connects again.
    const options = this.connectOptions(provider);
    try {
      grant = await provider.exchangeCode(client, { code: query.code, redirectUri: state.redirect_uri, codeVerifier }, signal, options);
      step = 'profile';
      identities = provider.fetchIdentities
        ? await provider.fetchIdentities(client, grant, signal, options)
        : [await provider.fetchIdentity(client, grant, signal)];
    } catch (error) {
      throw connectionProblem(error, provider.platform, step);
    }
    // Every account the grant covers holds it (or the token the network issued for that account, as a Facebook Page's);
    // the callback answers the first, connected first.
    const [first, ...others] = identities;
    if (!first)
      throw connectionProblem(new ProviderError('unavailable', `${provider.platform} named no account.`), provider.platform, step);
    const reply = await this.upsert(state, principal.userId, first, first.grant ?? grant);
    for (const identity of others) await this.upsert(state, principal.userId, identity, identity.grant ?? grant);
    return reply;
  }

  /** The instance's settings for connecting this network (its extension setting, when it has one). */
  private connectOptions(provider: OAuthConnectProvider): ConnectOptions {
    return { extension: provider.extensionSetting ? this.settings.boolean(provider.extensionSetting) : false };
  }

  /**
   * Marks the state used, in the one statement that checks it: a state is
   * spent by its first valid callback even when the exchange then fails, and
   * a callback by someone else or for another network neither uses nor spends it.
   */
  private async spendState(userId: string, platform: string, state: string): Promise<StateRow> {
    const rows = await changedRows<StateRow>(
      this.dataSource,
      `UPDATE oauth_states SET used_at = now()
       WHERE state_hash = $1 AND user_id = $2 AND platform = $3 AND used_at IS NULL AND expires_at > now()
       RETURNING id, workspace_id, platform, instance_url, redirect_uri, sealed_code_verifier`,
      [sha256(state), userId, platform],
    );
    if (!rows[0]) throw invalidState();
    return rows[0];
  }

  /** A verifier sealed under another SECRETS_KEY (rotated within the 10 minutes) cannot prove anything: the state is as good as unknown. */
  private openVerifier(state: StateRow): string | undefined {
    if (!state.sealed_code_verifier) return undefined;
    try {
      return this.secrets.open(state.sealed_code_verifier, `oauth_states:${state.id}`);
    } catch {
      throw invalidState();
    }
  }

  /**
   * The app the flow uses: active, for OAuth, with a secret when the
   * network needs one; else 422 `provider_not_configured` at `location`.
   */
  private async activeApp(provider: OAuthConnectProvider, instanceUrl: string, location: string): Promise<ResolvedProviderApp> {
    const app = await this.apps.resolve(provider.platform, instanceUrl);
    const subject = `the ${provider.platform} app${instanceUrl ? ` for ${instanceUrl}` : ''}`;
    let reason: string | undefined;
    if (!app)
      reason =
        `no active ${provider.platform} app${instanceUrl ? ` for ${instanceUrl}` : ''} is ` +
        'configured on this instance (an administrator adds one)';
    else if (app.connection_mode !== 'oauth') reason = `${subject} is set up for ${app.connection_mode} connections, not OAuth`;
    else if (provider.requiresClientSecret && !app.client_secret) reason = `${subject} has no client secret`;
    if (reason) {
      throw new Problem(422, 'provider_not_configured', `${location} ${reason}.`, {
        errors: [{ location, message: reason, value: provider.platform }],
      });
    }
    return app!;
  }

  /**
   * A new identity is connected (201); one the workspace has already (same network id) gets the new tokens and is
   * active again (200), keeping its id.
   */
  private upsert(state: StateRow, userId: string, identity: ConnectedIdentity, grant: ProviderGrant): Promise<HttpReply<SocialAccount>> {
    return upsertConnectedAccount(this.dataSource, this.secrets, {
      workspaceId: state.workspace_id,
      platform: state.platform,
      instanceUrl: state.instance_url,
      userId,
      identity,
      grant,
    });
  }
}

/** A network's failure as the callback answers it. */
function connectionProblem(error: unknown, platform: string, step: 'exchange' | 'profile'): unknown {
  if (!(error instanceof ProviderError)) return error;
  switch (error.failure) {
    case 'refused': {
      const message =
        step === 'exchange'
          ? `was refused by ${platform}${error.networkCode ? ` (${error.networkCode})` : ''}: wrong, expired or already used`
          : `was accepted by ${platform}, which then refused to tell us the account (were the requested permissions granted?)`;
      return new Problem(422, 'oauth_code_rejected', `query.code ${message}; connect again.`, {
        errors: [{ location: 'query.code', message }],
      });
    }
    case 'no_account':
      return new Problem(422, 'provider_account_unavailable', error.message);
    case 'timeout':
      return new Problem(504, 'provider_timeout', `${platform} did not answer in time; try connecting again.`, { retryAfter: 5 });
    case 'unavailable':
      return new Problem(502, 'provider_unavailable', `${error.message} Try connecting again shortly.`, { retryAfter: 30 });
  }
}
