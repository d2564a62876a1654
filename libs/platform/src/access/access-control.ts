import { Global, Inject, Injectable, Module, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  MEMBERSHIP_CHANGED_SUBJECT,
  MembershipChangedEvent,
  Principal,
  ResolveWorkspaceAccessRequest,
  TenancyPatterns,
  WORKSPACE_ROLE_RANK,
  WorkspaceAccess,
  WorkspaceRole,
} from '@social/contracts';
import { ExpiringCache } from '../cache/expiring-cache.js';
import { problems } from '../problems/problem.js';
import { RpcClient } from '../rpc/rpc-client.js';
import { NATS_CONNECTION } from '../service/tokens.js';

/** Where an operation found the workspace id: a path names a resource (404 when not visible), a query or body names a scope (403). */
export type NamedIn = 'path' | 'query' | 'body';

export type WorkspaceAccessResolver = (userId: string, workspaceId: string) => Promise<WorkspaceAccess>;
/** Provided by the accounts service, which owns memberships and answers from its own tables. */
export const WORKSPACE_ACCESS_RESOLVER = Symbol('WORKSPACE_ACCESS_RESOLVER');

/** Short enough that a missed membership event heals quickly; the event usually drops an entry at once. */
const CACHE_TTL_MS = 10_000;
/** Bounds memory whatever callers ask (random workspace ids included): the oldest answers go first. */
const MAX_CACHED_ANSWERS = 20_000;
const MAX_TRACKED_USERS = 20_000;

export type GrantedWorkspaceAccess = WorkspaceAccess & { role: WorkspaceRole };

/**
 * The one answer to "may this principal do this in this workspace?", used by
 * every service. Memberships belong to the accounts service: other services ask
 * it over NATS; answers are cached briefly per user and dropped when accounts
 * announces a membership change.
 */
@Injectable()
export class AccessControl implements OnModuleInit, OnModuleDestroy {
  private readonly answers = new ExpiringCache<WorkspaceAccess>(MAX_CACHED_ANSWERS);
  /**
   * A membership event bumps the user's generation (or, for everyone, the
   * epoch): older answers are then never read again, and a lookup that was in
   * flight while the event arrived is not cached.
   */
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private subscription?: Subscription;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly rpc: RpcClient,
    @Optional() @Inject(WORKSPACE_ACCESS_RESOLVER) private readonly localResolver?: WorkspaceAccessResolver,
  ) {}

  onModuleInit(): void {
    this.subscription = this.nats.subscribe(MEMBERSHIP_CHANGED_SUBJECT, {
      callback: (error, message) => {
        if (error) return;
        try {
          this.forget(message.json<MembershipChangedEvent>());
        } catch {
          this.forget({ user_ids: [], all: true });
        }
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /** The caller's effective role in the workspace, or null (not a member, no such workspace, or a token bound elsewhere). */
  async workspace(principal: Principal, workspaceId: string): Promise<WorkspaceAccess> {
    const access = await this.lookup(principal.userId, workspaceId);
    if (principal.workspaceId && principal.workspaceId.toLowerCase() !== access.workspace_id.toLowerCase())
      return { ...access, role: null };
    return access;
  }

  /**
   * Refuses unless the caller holds at least `need` in the workspace: an
   * invisible workspace is 404 when the path addressed it and 403 when a query
   * or body named it (the same answer whether or not it exists); too low a role is 403.
   */
  async requireWorkspace(
    principal: Principal,
    workspaceId: string,
    need: WorkspaceRole,
    namedIn: NamedIn,
  ): Promise<GrantedWorkspaceAccess> {
    const access = await this.workspace(principal, workspaceId);
    if (!access.role) {
      if (namedIn === 'path') throw problems.notFound();
      throw problems.forbidden('workspace_forbidden', 'You are not a member of this workspace.');
    }
    if (WORKSPACE_ROLE_RANK[access.role] < WORKSPACE_ROLE_RANK[need]) {
      throw problems.forbidden('insufficient_role', `This needs the ${need} role in the workspace; you are ${access.role}.`);
    }
    return access as GrantedWorkspaceAccess;
  }

  /**
   * A resource the path addressed: 404 (`notFound`) when `load` finds none or
   * it sits in a workspace the caller cannot see, 403 when their role is below `need`.
   */
  async requireVisible<T extends { workspaceId: string }>(
    principal: Principal,
    load: () => Promise<T | null>,
    need: WorkspaceRole,
    notFound: string,
  ): Promise<T> {
    const resource = await load();
    if (!resource) throw problems.notFound(notFound);
    await this.requireWorkspace(principal, resource.workspaceId, need, 'path');
    return resource;
  }

  private async lookup(userId: string, rawWorkspaceId: string): Promise<WorkspaceAccess> {
    const workspaceId = rawWorkspaceId.toLowerCase();
    const key = this.cacheKey(userId, workspaceId);
    const cached = this.answers.get(key);
    if (cached) return cached;
    const access = this.localResolver
      ? await this.localResolver(userId, workspaceId)
      : await this.rpc.send<WorkspaceAccess>(TenancyPatterns.resolveWorkspaceAccess, {
          user_id: userId,
          workspace_id: workspaceId,
        } satisfies ResolveWorkspaceAccessRequest);
    // Cached only if no membership event for this user arrived meanwhile.
    if (this.cacheKey(userId, workspaceId) === key) this.answers.set(key, access, Date.now() + CACHE_TTL_MS);
    return access;
  }

  private cacheKey(userId: string, workspaceId: string): string {
    return `${this.epoch}:${userId}:${this.generations.get(userId) ?? 0}:${workspaceId}`;
  }

  /** Drops cached answers for the users an event names (or all); accounts calls it directly for its own changes. */
  forget(event: MembershipChangedEvent): void {
    if (event.all || this.generations.size >= MAX_TRACKED_USERS) {
      this.epoch += 1;
      this.generations.clear();
      if (event.all) return;
    }
    for (const userId of event.user_ids ?? []) this.generations.set(userId, (this.generations.get(userId) ?? 0) + 1);
  }
}

/** Import once in a service's root imports; AccessControl is then injectable everywhere in it. */
@Global()
@Module({ providers: [AccessControl], exports: [AccessControl] })
export class AccessModule {}
