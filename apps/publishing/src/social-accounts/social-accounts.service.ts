import { Injectable } from '@nestjs/common';
import {
  ACCOUNT_DISCONNECTED_SUBJECT,
  AccountDisconnectedEvent,
  ConnectSocialAccountRequest,
  HttpReply,
  Principal,
  SANDBOX_PROVIDER,
  SocialAccount,
  SocialAccountAuthorization,
  SocialAccountList,
} from '@social/contracts';
import { AccessControl, enqueueEvent, InstanceSettings, isUniqueViolation, problems } from '@social/platform';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { deriveStatus } from '../delivery/renditions.js';
import { PublicationEntity } from '../publications/publication.entity.js';
import { ProviderRegistry } from '../providers/provider-registry.js';
import { SandboxProvider } from '../providers/sandbox/sandbox.provider.js';
import type { ConnectedIdentity } from '../providers/social-provider.js';
import { CredentialConnections } from './credential-connections.service.js';
import { OAuthConnections } from './oauth-connections.service.js';
import { SocialAccountEntity } from './social-account.entity.js';
import { toSocialAccount } from './social-account.view.js';

/** Members that name where a destination network posts, and the networks that take each. */
const DESTINATION_FIELDS = [
  ['webhook_url', "discord (a channel's incoming webhook)"],
  ['chat_id', 'telegram (the channel or group the bot posts in)'],
] as const;
const DESTINATION_NAMES = {
  webhook_url: "the channel's incoming webhook URL",
  chat_id: 'the channel or group to post in (its numeric id or @username)',
} as const;

/** The sandbox's simulated handles stay short; bluesky handles may be DNS names up to 253 characters. */
const SANDBOX_USERNAME_MAX = 64;

@Injectable()
export class SocialAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly providers: ProviderRegistry,
    private readonly settings: InstanceSettings,
    private readonly oauth: OAuthConnections,
    private readonly credentials: CredentialConnections,
  ) {}

  async list(principal: Principal, workspaceId: string): Promise<SocialAccountList> {
    const workspace = await this.access.requireWorkspace(principal, workspaceId, 'viewer', 'query');
    const accounts = await this.dataSource
      .getRepository(SocialAccountEntity)
      .find({ where: { workspaceId: workspace.workspace_id }, order: { createdAt: 'ASC', id: 'ASC' } });
    const posts = await this.postsPublished(accounts);
    return { accounts: accounts.map((account) => toSocialAccount(account, posts.get(account.id) ?? 0)) };
  }

  async get(principal: Principal, id: string): Promise<SocialAccount> {
    const account = await this.findVisible(principal, id, 'viewer');
    const posts = await this.postsPublished([account]);
    return toSocialAccount(account, posts.get(account.id) ?? 0);
  }

  /** Service to service (webhooks' event bodies): the account as the API shows it, or null when gone or another workspace's. */
  async read(id: string, workspaceId: string): Promise<SocialAccount | null> {
    const account = await this.dataSource.getRepository(SocialAccountEntity).findOneBy({ id, workspaceId });
    if (!account) return null;
    const posts = await this.postsPublished([account]);
    return toSocialAccount(account, posts.get(account.id) ?? 0);
  }

  /** The sandbox network's count of posts per sandbox account (docs/decisions.md `posts_published`); other networks: none. */
  private async postsPublished(accounts: SocialAccountEntity[]): Promise<Map<string, number>> {
    const sandbox = this.providers.get(SANDBOX_PROVIDER);
    const ids = accounts.filter((account) => account.platform === SANDBOX_PROVIDER).map((account) => account.id);
    return sandbox instanceof SandboxProvider ? sandbox.countPosts(ids) : new Map();
  }

  /**
   * Sandbox: the account at once (201). Bluesky: signed in at once (201, 200 when connected
   * already). Discord and Telegram: the destination checked at once (201, 200 when connected already).
   * OAuth networks: where to send the user (200), completed by OAuthConnections.complete.
   */
  async connect(principal: Principal, input: ConnectSocialAccountRequest): Promise<HttpReply<SocialAccount | SocialAccountAuthorization>> {
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const provider = this.providers.get(input.provider);
    const withCredentials = provider?.connectMode === 'credentials';
    if (input.username !== undefined && input.provider !== SANDBOX_PROVIDER && !withCredentials) {
      throw problems.invalid(
        'body.username',
        'is only for the sandbox provider and bluesky; other networks tell us the account',
        input.username,
      );
    }
    if (input.provider === SANDBOX_PROVIDER && input.username !== undefined && input.username.length > SANDBOX_USERNAME_MAX) {
      throw problems.invalid(
        'body.username',
        `must be at most ${SANDBOX_USERNAME_MAX} characters for the sandbox provider`,
        input.username,
      );
    }
    if (input.app_password !== undefined && !withCredentials) {
      throw problems.invalid('body.app_password', 'is only for networks connected with an app password (bluesky)');
    }
    const destinationField = provider?.connectMode === 'destination' ? provider.destinationField : undefined;
    for (const [field, networks] of DESTINATION_FIELDS) {
      // Never echoed: a webhook URL is a secret.
      if (input[field] !== undefined && field !== destinationField) throw problems.invalid(`body.${field}`, `is only for ${networks}`);
    }
    const hasInstances = provider?.connectMode === 'oauth' && provider.hasInstances;
    if (!hasInstances && !withCredentials && input.instance_url !== undefined) {
      throw problems.invalid('body.instance_url', 'is only for networks of separate servers (mastodon, bluesky)', input.instance_url);
    }
    if (provider?.connectMode === 'credentials') {
      const missing = [
        ...(input.username === undefined
          ? [{ location: 'body.username', message: `is required for ${input.provider}: the account's handle` }]
          : []),
        ...(input.app_password === undefined
          ? [{ location: 'body.app_password', message: `is required for ${input.provider}: an app password of the account` }]
          : []),
      ];
      if (missing.length > 0) throw problems.validation(missing);
      const instanceUrl = input.instance_url === undefined ? provider.defaultInstanceUrl : this.instanceUrlOf(input);
      return this.credentials.connect(principal, workspace.workspace_id, provider, {
        instanceUrl,
        identifier: input.username!,
        password: input.app_password!,
      });
    }
    if (provider?.connectMode === 'destination') {
      const destination = input[provider.destinationField];
      if (destination === undefined) {
        throw problems.validation([
          {
            location: `body.${provider.destinationField}`,
            message: `is required for ${input.provider}: ${DESTINATION_NAMES[provider.destinationField]}`,
          },
        ]);
      }
      return this.credentials.connectDestination(principal, workspace.workspace_id, provider, destination);
    }
    if (provider?.connectMode === 'instant') {
      if (!this.settings.boolean('sandbox_provider_enabled')) {
        throw problems.invalid('body.provider', 'the sandbox provider is turned off on this instance', input.provider);
      }
      const id = uuidv7();
      const account = await this.saveNew(
        id,
        workspace.workspace_id,
        input.provider,
        principal.userId,
        provider.connect({ accountId: id, username: input.username }),
      );
      return { status: 201, body: account, replayed: false };
    }
    if (provider?.connectMode === 'oauth') {
      const authorization = await this.oauth.begin(
        principal,
        workspace.workspace_id,
        provider,
        hasInstances ? this.instanceUrlOf(input) : '',
      );
      return { status: 200, body: authorization, replayed: false };
    }
    throw problems.invalid('body.provider', this.providers.unavailableReason(input.provider), input.provider);
  }

  /**
   * The account's renditions go with it (ON DELETE CASCADE): pending ones are
   * never delivered (the scheduler finds them gone), and each publication they
   * belonged to gets its status again from the renditions left (a scheduled
   * one left with none is a draft again). The publications are locked first,
   * in id order, as the scheduler locks a publication before its renditions.
   * While any of its renditions is being delivered (`submitted`: the call is
   * out; `ambiguous`: it may have created the post) it is 409
   * `account_delivering`: deleting the rendition would lose a live post's
   * outcome and let publishing again duplicate it. The deletion writes
   * `durable.publishing.account.disconnected` in the same transaction.
   */
  async disconnect(principal: Principal, id: string): Promise<void> {
    const account = await this.findVisible(principal, id, 'editor');
    await this.dataSource.transaction(async (db) => {
      const publications: Array<{ id: string }> = await db.query(
        `SELECT id FROM publications WHERE id IN (SELECT publication_id FROM renditions WHERE social_account_id = $1)
         ORDER BY id FOR UPDATE`,
        [account.id],
      );
      // Under the publications' locks: the scheduler commits `submitted` only while holding its publication's.
      const [delivering]: Array<{ id: string }> = await db.query(
        `SELECT id FROM renditions WHERE social_account_id = $1 AND delivery_state IN ('submitted', 'ambiguous') LIMIT 1`,
        [account.id],
      );
      if (delivering) {
        throw problems.conflict(
          'account_delivering',
          `A post is being delivered to this account (rendition ${delivering.id}); disconnect it once the delivery has settled.`,
        );
      }
      await db.query(`DELETE FROM social_accounts WHERE id = $1`, [account.id]);
      // Insights stops syncing it and drops what it kept (issue 15): in the same transaction, through the outbox.
      await enqueueEvent(db, ACCOUNT_DISCONNECTED_SUBJECT, {
        workspace_id: account.workspaceId,
        social_account_id: account.id,
        platform: account.platform,
        occurred_at: new Date().toISOString(),
      } satisfies AccountDisconnectedEvent);
      for (const publication of publications) {
        await deriveStatus(db, publication.id);
        await db
          .createQueryBuilder()
          .update(PublicationEntity)
          .set({ status: 'draft', scheduledAt: null, updatedAt: () => 'now()' })
          .where(`id = :id AND status IN ('scheduled', 'ready') AND NOT EXISTS (SELECT 1 FROM renditions WHERE publication_id = :id)`, {
            id: publication.id,
          })
          .execute();
      }
    });
  }

  /** A path-addressed account: 404 unless the caller can see its workspace, 403 when their role is below `need`. */
  findVisible(principal: Principal, id: string, need: 'viewer' | 'editor'): Promise<SocialAccountEntity> {
    return this.access.requireVisible(
      principal,
      () => this.dataSource.getRepository(SocialAccountEntity).findOneBy({ id }),
      need,
      'No such social account.',
    );
  }

  /**
   * The server of a network with instances, as its origin (`https://Social.Example/`
   * → `https://social.example`), as provider apps store it.
   */
  private instanceUrlOf(input: ConnectSocialAccountRequest): string {
    if (input.instance_url === undefined) throw problems.invalid('body.instance_url', `is required for ${input.provider}`);
    let origin: string | undefined;
    try {
      origin = new URL(input.instance_url).origin;
    } catch {
      origin = undefined;
    }
    if (!origin || origin === 'null') throw problems.invalid('body.instance_url', 'must be a valid https URL', input.instance_url);
    return origin;
  }

  private async saveNew(
    id: string,
    workspaceId: string,
    platform: string,
    userId: string,
    identity: ConnectedIdentity,
  ): Promise<SocialAccount> {
    const now = new Date();
    const account: SocialAccountEntity = {
      id,
      workspaceId,
      platform,
      externalId: identity.externalId,
      username: identity.username,
      displayName: identity.displayName,
      avatarUrl: identity.avatarUrl,
      instanceUrl: '',
      status: 'active',
      credentials: '',
      connectedBy: userId,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.dataSource.getRepository(SocialAccountEntity).insert(account);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw problems.conflict(
          'account_already_connected',
          `The ${platform} account ${identity.username} is already connected to this workspace.`,
        );
      }
      throw error;
    }
    return toSocialAccount(account);
  }
}
