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
import { problems } from '../problems/problem.js';
import { RpcClient } from '../rpc/rpc-client.js';
import { NATS_CONNECTION } from '../service/tokens.js';

/** Where an operation found the workspace id: a path names a resource (404 when not visible), a query or body names a scope (403). */
export type NamedIn = 'path' | 'query' | 'body';

export type WorkspaceAccessLookup = (userId: string, workspaceId: string) => Promise<WorkspaceAccess>;
/** Provided by the accounts service, which owns memberships and answers from its own tables. */
export const WORKSPACE_ACCESS_LOOKUP = Symbol('WORKSPACE_ACCESS_LOOKUP');

/** Short enough that a missed membership event heals quickly; the event usually drops an entry at once. */
const CACHE_TTL_MS = 10_000;
const MAX_CACHED_USERS = 10_000;

export type GrantedWorkspaceAccess = WorkspaceAccess & { role: WorkspaceRole };

/**
 * The one answer to "may this principal do this in this workspace?", used by
 * every service. Memberships belong to the accounts service: other services ask
 * it over NATS; answers are cached briefly per user and dropped when accounts
 * announces a membership change.
 */
@Injectable()
export class AccessControl implements OnModuleInit, OnModuleDestroy {
  private readonly cache = new Map<string, Map<string, { access: WorkspaceAccess; expiresAt: number }>>();
  private subscription?: Subscription;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly rpc: RpcClient,
    @Optional() @Inject(WORKSPACE_ACCESS_LOOKUP) private readonly localLookup?: WorkspaceAccessLookup,
  ) {}

  onModuleInit(): void {
    this.subscription = this.nats.subscribe(MEMBERSHIP_CHANGED_SUBJECT, {
      callback: (error, message) => {
        if (error) return;
        try {
          this.forget(message.json<MembershipChangedEvent>());
        } catch {
          this.cache.clear();
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
    if (principal.workspaceId && principal.workspaceId !== workspaceId) return { ...access, role: null };
    return access;
  }

  /**
   * Refuses unless the caller holds at least `need` in the workspace: an
   * invisible workspace is 404 when the path addressed it and 403 when a query
   * or body named it (the same answer whether or not it exists); too low a role is 403.
   */
  async requireWorkspace(principal: Principal, workspaceId: string, need: WorkspaceRole, namedIn: NamedIn): Promise<GrantedWorkspaceAccess> {
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

  private async lookup(userId: string, workspaceId: string): Promise<WorkspaceAccess> {
    const now = Date.now();
    const cached = this.cache.get(userId)?.get(workspaceId);
    if (cached && cached.expiresAt > now) return cached.access;
    const access = this.localLookup
      ? await this.localLookup(userId, workspaceId)
      : await this.rpc.send<WorkspaceAccess>(TenancyPatterns.resolveWorkspaceAccess, {
          user_id: userId,
          workspace_id: workspaceId,
        } satisfies ResolveWorkspaceAccessRequest);
    this.remember(userId, workspaceId, access, now + CACHE_TTL_MS);
    return access;
  }

  private remember(userId: string, workspaceId: string, access: WorkspaceAccess, expiresAt: number): void {
    let perUser = this.cache.get(userId);
    if (!perUser) {
      if (this.cache.size >= MAX_CACHED_USERS) this.cache.delete(this.cache.keys().next().value as string);
      perUser = new Map();
      this.cache.set(userId, perUser);
    }
    perUser.set(workspaceId, { access, expiresAt });
  }

  /** Drops cached answers for the users an event names (or all); accounts calls it directly for its own changes. */
  forget(event: MembershipChangedEvent): void {
    if (event.all) {
      this.cache.clear();
      return;
    }
    for (const userId of event.user_ids ?? []) this.cache.delete(userId);
  }
}

/** Import once in a service's root imports; AccessControl is then injectable everywhere in it. */
@Global()
@Module({ providers: [AccessControl], exports: [AccessControl] })
export class AccessModule {}
