import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ACCOUNT_NEEDS_ATTENTION_SUBJECT,
  type AccountAttentionReason,
  type AccountNeedsAttentionEvent,
  type SocialAccountStatus,
} from '@social/contracts';
import { changedRows, enqueueEvent, entityColumns, preparedQuery, SecretBox, SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import type { PublishingConfig } from '../config.js';
import { toDeliveryFailure } from '../providers/delivery-failure.js';
import { ProviderApps } from '../providers/provider-apps.client.js';
import { ProviderError } from '../providers/provider-error.js';
import { ProviderRegistry } from '../providers/provider-registry.js';
import { DeliveryError, type ProviderAccount, type ProviderGrant, type SocialProvider } from '../providers/social-provider.js';
import { SocialAccountEntity } from './social-account.entity.js';

/** A grant expiring within this is renewed before it is handed out. */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;

interface LockedRow {
  id: string;
  workspace_id: string;
  platform: string;
  external_id: string;
  username: string;
  instance_url: string;
  status: SocialAccountStatus;
  credentials: string;
}

type Renewal = { kind: 'renewed'; grant: ProviderGrant } | { kind: 'refused' } | { kind: 'gone' };

/**
 * The one way the service hands a connected account to its network adapter:
 * the row with its grant unsealed, renewed first when it expires within 5
 * minutes (OAuth refresh tokens, Bluesky sessions). Renewal runs under a
 * claim (`renewing_until`, one short statement; no transaction is open
 * during the network call) and re-reads the grant with it: refresh tokens
 * rotate, so of two replicas only the first renews and the second waits for
 * the claim to end and gets the new grant. A network that refuses the renewal marks the account
 * `reconnect_required` and writes `durable.publishing.account.needs-attention`
 * in the same transaction; the caller gets a DeliveryError rejected/auth. A
 * network that cannot be reached leaves everything as it was (retryable).
 */
@Injectable()
export class ProviderAccounts {
  /** The account row's select list (`row`), made once. */
  private accountColumns?: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly registry: ProviderRegistry,
    private readonly apps: ProviderApps,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<PublishingConfig, 'PROVIDER_TIMEOUT_MS'>,
    @Optional() @Inject(SERVICE_LOGGER) private readonly logger?: Logger,
  ) {}

  /**
   * The account by id as its adapter needs it (its grant fresh), or null when
   * it is gone; throws a DeliveryError when the grant cannot be renewed.
   */
  async find(accountId: string): Promise<ProviderAccount | null> {
    const row = await this.row(accountId);
    return row ? this.ready(row) : null;
  }

  /** The account's row, or null: a named statement, as every delivery and every insights call reads one (docs/performance.md). */
  async row(accountId: string): Promise<SocialAccountEntity | null> {
    this.accountColumns ??= entityColumns(this.dataSource, SocialAccountEntity, 'a');
    const [row] = await preparedQuery<SocialAccountEntity>(
      this.dataSource,
      'publishing.accounts.find',
      `SELECT ${this.accountColumns} FROM social_accounts a WHERE a.id = $1`,
      [accountId],
    );
    return row ?? null;
  }

  /**
   * The rows of several accounts at once, by id (those gone are absent): the scheduler reads the accounts of a claimed
   * batch in one statement instead of one a rendition.
   */
  async rows(accountIds: string[]): Promise<Map<string, SocialAccountEntity>> {
    this.accountColumns ??= entityColumns(this.dataSource, SocialAccountEntity, 'a');
    const rows = await preparedQuery<SocialAccountEntity>(
      this.dataSource,
      'publishing.accounts.find-many',
      `SELECT ${this.accountColumns} FROM social_accounts a WHERE a.id = ANY($1::uuid[])`,
      [accountIds],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** `find` for a row the caller has read already (one read less per call). */
  async ready(row: SocialAccountEntity): Promise<ProviderAccount> {
    if (row.status === 'reconnect_required') {
      // Its grant was refused (at renewal or at publish): nothing goes out until it is connected again.
      throw new DeliveryError({
        outcome: 'rejected',
        kind: 'auth',
        code: 'provider_auth_rejected',
        message: `${row.platform} refused the account's authorization; connect the account again.`,
        httpStatus: 0,
      });
    }
    const account = this.toProviderAccount(row);
    if (account.grant && this.renewable(account) && expiresSoon(account.grant)) {
      account.grant = await this.renew(account, account.grant.accessToken, false);
    }
    const provider = this.registry.get(account.platform);
    if (account.grant && provider?.connectMode === 'destination' && provider.usesBotToken) {
      account.grant = { ...account.grant, accessToken: await this.botToken(account.platform) };
    }
    return account;
  }

  /**
   * The bot token a bot network's account is reached with: the saved provider app's, read at each use (contract §3: a
   * publish uses the app refreshed from the saved one), never kept with the account. Without one the account stays
   * active and delivery fails until an administrator restores the app.
   */
  private async botToken(platform: string): Promise<string> {
    let app;
    try {
      app = await this.apps.resolve(platform, '');
    } catch (error) {
      throw new DeliveryError(toDeliveryFailure(error, platform, false));
    }
    if (!app || app.connection_mode !== 'bot' || !app.bot_token) {
      throw new DeliveryError({
        outcome: 'rejected',
        kind: 'auth',
        code: 'provider_not_configured',
        message: `No active ${platform} app with a bot token is configured to reach the account.`,
        httpStatus: 0,
      });
    }
    return app.bot_token;
  }

  toProviderAccount(row: SocialAccountEntity): ProviderAccount {
    const account: ProviderAccount = {
      id: row.id,
      platform: row.platform as ProviderAccount['platform'],
      externalId: row.externalId,
      username: row.username,
      instanceUrl: row.instanceUrl,
      grant: row.credentials ? this.open(row.id, row.credentials) : null,
    };
    if (account.grant && this.renewable(account)) {
      // The network said the access token expired before we thought: renew now, once per token.
      account.renewGrant = async () => {
        account.grant = await this.renew(account, account.grant?.accessToken ?? '', true);
        return account.grant;
      };
    }
    return account;
  }

  private renewable(account: ProviderAccount): boolean {
    const provider = this.registry.get(account.platform);
    return provider?.connectMode === 'credentials' || (provider?.connectMode === 'oauth' && provider.refreshGrant !== undefined);
  }

  /**
   * Renews under a claim (`renewing_until`, set in one short statement), with
   * no transaction open during the network call: many renewals at once never
   * hold the pool's connections (the scheduler's lease renewals need them).
   * `staleToken` is the access token the caller holds: when the row's
   * differs, another replica renewed meanwhile and its grant is answered as
   * is; a replica that finds the claim taken waits for it to end and reads the
   * grant then, so two replicas never both use one refresh token. `expired`
   * says the network refused the token (renew whatever its expiry);
   * otherwise only a grant still expiring soon is renewed.
   */
  private async renew(account: ProviderAccount, staleToken: string, expired: boolean): Promise<ProviderGrant> {
    const provider = this.registry.get(account.platform)!;
    const claimMs = this.config.PROVIDER_TIMEOUT_MS * 2 + 5_000;
    let renewal: Renewal;
    try {
      renewal = await this.renewUnderClaim(provider, account, staleToken, expired, claimMs);
    } catch (error) {
      if (error instanceof DeliveryError) throw error;
      this.logger?.warn(
        { accountId: account.id, platform: account.platform, err: { message: (error as Error).message } },
        'grant renewal failed; trying again later',
      );
      // Unreachable, slow or failing (network, admin service, database): nothing changed, trying later may work.
      throw new DeliveryError(toDeliveryFailure(error, account.platform, false));
    }
    if (renewal.kind === 'renewed') return renewal.grant;
    throw new DeliveryError({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_auth_rejected',
      message: `${account.platform} refused to renew the account's authorization; connect the account again.`,
      httpStatus: 401,
    });
  }

  private async renewUnderClaim(
    provider: SocialProvider,
    account: ProviderAccount,
    staleToken: string,
    expired: boolean,
    claimMs: number,
  ): Promise<Renewal> {
    const giveUpAt = Date.now() + claimMs * 2;
    for (;;) {
      // The claim: the row, unless another replica is renewing it (its claim not yet run out). Milliseconds, so it compares equal from JS.
      const [claimed] = await changedRows<LockedRow & { renewing_until: Date }>(
        this.dataSource,
        `UPDATE social_accounts SET renewing_until = date_trunc('milliseconds', now() + make_interval(secs => $2::int / 1000.0))
          WHERE id = $1 AND (renewing_until IS NULL OR renewing_until < now())
          RETURNING id, workspace_id, platform, external_id, username, instance_url, status, credentials, renewing_until`,
        [account.id, claimMs],
      );
      const row: LockedRow | undefined =
        claimed ??
        (
          await this.dataSource.query<LockedRow[]>(
            `SELECT id, workspace_id, platform, external_id, username, instance_url, status, credentials FROM social_accounts
             WHERE id = $1`,
            [account.id],
          )
        )[0];
      const settled = this.settledWithoutRenewing(row, staleToken, expired);
      if (settled) {
        if (claimed) await this.releaseClaim(claimed.id, claimed.renewing_until);
        return settled;
      }
      if (!claimed) {
        // Another replica is renewing it: its grant, once stored, answers this caller too.
        if (Date.now() > giveUpAt) throw new Error('another replica has been renewing the grant for too long');
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const current = this.open(claimed.id, claimed.credentials);
      let grant: ProviderGrant;
      try {
        grant = await this.ask(provider, { ...account, instanceUrl: claimed.instance_url, grant: current });
      } catch (error) {
        if (error instanceof ProviderError && (error.failure === 'refused' || error.failure === 'no_account')) {
          await this.dataSource.transaction(async (manager) => {
            await this.needsReconnect(manager, claimed);
            await manager.query(`UPDATE social_accounts SET renewing_until = NULL WHERE id = $1 AND renewing_until = $2`, [
              claimed.id,
              claimed.renewing_until,
            ]);
          });
          return { kind: 'refused' };
        }
        await this.releaseClaim(claimed.id, claimed.renewing_until);
        throw error;
      }
      // Stored even if the claim ran out meanwhile (the network has rotated the refresh token, the old one is spent),
      // unless the account was connected again meanwhile: its new grant stands.
      await this.dataSource.query(
        `UPDATE social_accounts SET credentials = $2, updated_at = now(),
           renewing_until = CASE WHEN renewing_until = $3 THEN NULL ELSE renewing_until END
          WHERE id = $1 AND credentials = $4`,
        [claimed.id, this.seal(claimed.id, grant), claimed.renewing_until, claimed.credentials],
      );
      await this.releaseClaim(claimed.id, claimed.renewing_until);
      return { kind: 'renewed', grant };
    }
  }

  /**
   * What the row answers without a renewal (gone, not active, renewed by
   * another replica, or no longer expiring); undefined when it must be renewed.
   */
  private settledWithoutRenewing(row: LockedRow | undefined, staleToken: string, expired: boolean): Renewal | undefined {
    if (!row || !row.credentials) return { kind: 'gone' };
    if (row.status !== 'active') return { kind: 'refused' };
    const current = this.open(row.id, row.credentials);
    if (current.accessToken !== staleToken || (!expired && !expiresSoon(current))) return { kind: 'renewed', grant: current };
    return undefined;
  }

  private async releaseClaim(accountId: string, claim: Date): Promise<void> {
    await this.dataSource.query(`UPDATE social_accounts SET renewing_until = NULL WHERE id = $1 AND renewing_until = $2`, [
      accountId,
      claim,
    ]);
  }

  /** The network's renewal, bounded by PROVIDER_TIMEOUT_MS; OAuth networks renew as the provider app in effect. */
  private async ask(provider: SocialProvider, account: ProviderAccount): Promise<ProviderGrant> {
    const signal = AbortSignal.timeout(this.config.PROVIDER_TIMEOUT_MS);
    if (provider.connectMode === 'credentials') return provider.refreshGrant(account, signal);
    if (provider.connectMode !== 'oauth' || !provider.refreshGrant)
      throw new ProviderError('refused', `${account.platform} grants cannot be renewed.`);
    const app = await this.apps.resolve(account.platform, account.instanceUrl);
    if (!app || app.connection_mode !== 'oauth') {
      // Not the account's fault: it stays active, and delivery fails until an administrator restores the app.
      throw new DeliveryError({
        outcome: 'rejected',
        kind: 'auth',
        code: 'provider_not_configured',
        message: `No active ${account.platform} app is configured to renew the account's authorization.`,
        httpStatus: 0,
      });
    }
    return provider.refreshGrant(
      { clientId: app.client_id, clientSecret: app.client_secret, instanceUrl: app.instance_url },
      account.grant!,
      signal,
    );
  }

  private async needsReconnect(manager: EntityManager, row: LockedRow): Promise<void> {
    await markReconnectRequired(manager, row.id, 'grant_refresh_refused');
    this.logger?.info({ accountId: row.id, platform: row.platform }, 'grant renewal refused; account needs reconnecting');
  }

  private open(accountId: string, sealed: string): ProviderGrant {
    return JSON.parse(this.secrets.open(sealed, `social_accounts:${accountId}`)) as ProviderGrant;
  }

  private seal(accountId: string, grant: ProviderGrant): string {
    return this.secrets.seal(JSON.stringify(grant), `social_accounts:${accountId}`);
  }
}

/**
 * Sets an active account `reconnect_required` and writes
 * `durable.publishing.account.needs-attention`, in the caller's transaction;
 * nothing when it is not active (so its owner is told once).
 */
export async function markReconnectRequired(manager: EntityManager, accountId: string, reason: AccountAttentionReason): Promise<void> {
  const rows = await changedRows<Pick<LockedRow, 'workspace_id' | 'platform'>>(
    manager,
    `UPDATE social_accounts SET status = 'reconnect_required', updated_at = now() WHERE id = $1 AND status = 'active'
     RETURNING workspace_id, platform`,
    [accountId],
  );
  const [row] = rows;
  if (!row) return;
  await enqueueEvent(manager, ACCOUNT_NEEDS_ATTENTION_SUBJECT, {
    workspace_id: row.workspace_id,
    social_account_id: accountId,
    platform: row.platform,
    reason,
    occurred_at: new Date().toISOString(),
  } satisfies AccountNeedsAttentionEvent);
}

function expiresSoon(grant: ProviderGrant, now = Date.now()): boolean {
  if (!grant.expiresAt) return false;
  const expiresAt = Date.parse(grant.expiresAt);
  return Number.isFinite(expiresAt) && expiresAt - now < REFRESH_BEFORE_EXPIRY_MS;
}
