import { randomUUID } from 'node:crypto';
import { HttpReply, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from '@social/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery, preparedStatement } from '../database/database.js';
import { fingerprintOf } from '../crypto/canonical-json.js';
import { Problem, problems } from '../problems/problem.js';

/**
 * The table a service's migration creates to use `IdempotentRequests`.
 * Checked-in migrations run this text: never edit it, change the table in a new migration.
 */
export const IDEMPOTENCY_TABLE_SQL = `
  CREATE TABLE idempotency_keys (
    user_id uuid NOT NULL,
    workspace_id uuid NOT NULL,
    operation text NOT NULL,
    key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND ${IDEMPOTENCY_KEY_MAX_LENGTH}),
    -- SHA-256 of the request body's canonical JSON: the same key with another body is refused.
    fingerprint text NOT NULL,
    state text NOT NULL CHECK (state IN ('in_flight', 'completed')),
    -- The holder of an in_flight claim, and until when it holds it: a claim whose holder crashed is taken over after that.
    claim_token uuid,
    locked_until timestamptz,
    response_status integer,
    -- The first answer's JSON as sent: text, not jsonb (which reorders keys), so a replay is byte-identical.
    response_body text,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    -- Workspace first: deleting an organization purges its workspaces' keys through this index.
    PRIMARY KEY (workspace_id, user_id, operation, key),
    CHECK (state = 'completed' OR (claim_token IS NOT NULL AND locked_until IS NOT NULL)),
    CHECK (state = 'in_flight' OR (response_status IS NOT NULL AND response_body IS NOT NULL))
  );
  -- Pruning takes the oldest expired rows.
  CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at)`;

const KEY_LOCATION = `header.${IDEMPOTENCY_KEY_HEADER}`;

/** Who asks what: a key means something only within (caller, workspace, operation), docs/decisions.md. */
export interface IdempotencyScope {
  /** The `Idempotency-Key` header as the gateway forwarded it; null when the request carried none. */
  key: string | null;
  userId: string;
  workspaceId: string;
  /** e.g. the message pattern `publishing.publications.create`. */
  operation: string;
  /** The validated request body: the same key with another body is refused (422). */
  request: unknown;
}

export interface IdempotencyOptions {
  /** How long a claim is held before a request that finds it abandoned (its holder crashed) may take it over. */
  leaseSeconds?: number;
  /**
   * How long after a claim its holder may still be on its way to the work (and not yet hold the claim's lock);
   * past it, a claim whose lock nobody holds is taken over before its lease ends.
   */
  holderGraceSeconds?: number;
  /** How long a key is remembered (docs/decisions.md: 24 h). */
  retentionSeconds?: number;
  /** Expired rows each claim deletes at most: more than one, so pruning always outpaces new keys. */
  pruneBatch?: number;
}

/** The work of a first request: its answer is stored in the same transaction as its effects. */
export type IdempotentWork<T> = (db: EntityManager) => Promise<Omit<HttpReply<T>, 'replayed'>>;

interface StoredKey {
  fingerprint: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_body: string | null;
  expired: boolean;
  lease_over: boolean;
}

type Claim = { kind: 'claimed'; token: string } | { kind: 'replay'; reply: HttpReply<unknown> };

/** The header's value, checked (1–200 characters, 422 at `header.idempotency-key`); null when absent. */
export function idempotencyKeyOf(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    const shown = typeof raw === 'string' && raw.length <= IDEMPOTENCY_KEY_MAX_LENGTH ? raw : undefined;
    throw problems.invalid(KEY_LOCATION, `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`, shown);
  }
  return raw;
}

const keyReused = () =>
  new Problem(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was used with a different request body; use a new key for a new request.',
    {
      errors: [{ location: KEY_LOCATION, message: 'was already used with a different request body' }],
    },
  );

const inFlight = () =>
  new Problem(409, 'idempotency_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly for its answer.', {
    retryAfter: 1,
  });

/**
 * Idempotency-Key (docs/decisions.md), enforced in the database so it holds across
 * replicas and racing requests. Phase 1 claims the key in its own statement
 * (insert-or-nothing, state `in_flight`); phase 2 runs the work and stores its
 * answer in ONE transaction, which commits only while the claim is still ours.
 * The same key and body then replay the stored answer; another body is 422; a
 * request that finds the claim held is 409. A failed phase 2 releases the
 * claim; a claim abandoned by a crash (or a release lost to a database restart)
 * is taken over as soon as nobody holds its lock, a hung one once its lease ends.
 */
export class IdempotentRequests {
  private readonly leaseSeconds: number;
  private readonly retentionSeconds: number;
  private readonly pruneBatch: number;
  private readonly holderGraceSeconds: number;

  constructor(
    private readonly dataSource: DataSource,
    options: IdempotencyOptions = {},
  ) {
    this.leaseSeconds = options.leaseSeconds ?? 30;
    this.retentionSeconds = options.retentionSeconds ?? 86_400;
    this.pruneBatch = options.pruneBatch ?? 10;
    this.holderGraceSeconds = options.holderGraceSeconds ?? 2;
  }

  /** Runs `work` once per key: without a key, simply in a transaction. */
  async run<T>(scope: IdempotencyScope, work: IdempotentWork<T>): Promise<HttpReply<T>> {
    const key = idempotencyKeyOf(scope.key);
    if (key === null) return { ...(await this.dataSource.transaction(work)), replayed: false };
    const id = [scope.userId.toLowerCase(), scope.workspaceId.toLowerCase(), scope.operation, key];
    const fingerprint = fingerprintOf(scope.request);
    const claim = await this.claim(id, fingerprint);
    if (claim.kind === 'replay') return claim.reply as HttpReply<T>;
    try {
      return await this.dataSource.transaction(async (db) => {
        // The claim's own lock (its token's), held until this transaction ends, also when this process dies
        // (PostgreSQL ends the dead session): a claim whose lock nobody holds was abandoned and is taken over
        // without waiting for the lease. Per claim, not per key: a holder that took over never waits for the old one.
        await preparedQuery(db, 'idempotency.lock-claim', 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [claim.token]);
        const reply = await work(db);
        const { rowCount: stored } = await preparedStatement(
          db,
          'idempotency.complete',
          `UPDATE idempotency_keys
           SET state = 'completed', response_status = $5, response_body = $6, claim_token = NULL, locked_until = NULL
           WHERE user_id = $1 AND workspace_id = $2 AND operation = $3 AND key = $4 AND claim_token = $7 AND state = 'in_flight'`,
          [...id, reply.status, JSON.stringify(reply.body), claim.token],
        );
        // Our lease ran out and another request took the key over: its answer will stand, ours rolls back.
        if (stored !== 1) throw inFlight();
        return { ...reply, replayed: false };
      });
    } catch (error) {
      // Nothing was stored: the key is free for a retry at once (a failed release just waits for the lease).
      await preparedStatement(
        this.dataSource,
        'idempotency.release',
        `DELETE FROM idempotency_keys
         WHERE user_id = $1 AND workspace_id = $2 AND operation = $3 AND key = $4 AND claim_token = $5 AND state = 'in_flight'`,
        [...id, claim.token],
      ).catch(() => undefined);
      throw error;
    }
  }

  private async claim(id: string[], fingerprint: string): Promise<Claim> {
    // Each pass either decides or lost a race that changed the row (released, pruned, taken over): look again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = randomUUID();
      // One round trip claims the key and prunes a few expired keys (skipping rows another request holds):
      // bounded work on every new claim, more than one row each, so no sweeper is needed.
      // Named: planning this statement cost PostgreSQL more CPU than running it (docs/performance.md).
      const inserted = await preparedQuery(
        this.dataSource,
        'idempotency.claim',
        `WITH pruned AS (
           DELETE FROM idempotency_keys WHERE (workspace_id, user_id, operation, key) IN (
             SELECT workspace_id, user_id, operation, key FROM idempotency_keys
             WHERE expires_at <= now() ORDER BY expires_at LIMIT $9 FOR UPDATE SKIP LOCKED))
         INSERT INTO idempotency_keys (user_id, workspace_id, operation, key, fingerprint, state, claim_token, locked_until, expires_at)
         VALUES ($1, $2, $3, $4, $5, 'in_flight', $6, now() + make_interval(secs => $7), now() + make_interval(secs => $8))
         ON CONFLICT DO NOTHING
         RETURNING 1`,
        [...id, fingerprint, token, this.leaseSeconds, this.retentionSeconds, this.pruneBatch],
      );
      if (inserted.length === 1) return { kind: 'claimed', token };
      const [row] = await preparedQuery<StoredKey>(
        this.dataSource,
        'idempotency.read',
        `SELECT fingerprint, state, response_status, response_body, expires_at <= now() AS expired, locked_until <= now() AS lease_over
         FROM idempotency_keys WHERE user_id = $1 AND workspace_id = $2 AND operation = $3 AND key = $4`,
        id,
      );
      if (!row) continue;
      if (!row.expired) {
        if (row.fingerprint !== fingerprint) throw keyReused();
        if (row.state === 'completed') {
          return { kind: 'replay', reply: { status: row.response_status!, body: JSON.parse(row.response_body!), replayed: true } };
        }
      }
      if (await this.takeOver(id, fingerprint, token)) return { kind: 'claimed', token };
      // Its holder is at work (it holds the claim's lock) and its lease runs: the caller retries later.
      if (!row.expired && !row.lease_over) throw inFlight();
    }
    throw inFlight();
  }

  /**
   * A key past its 24 h starts afresh; an abandoned claim (same body) gets a new holder. One wins a race.
   * Abandoned: its lease is over, or, after a short grace (the holder's way from claim to work), nobody holds its
   * lock: its holder crashed (kill -9, lost connection) or failed and could not release it (the database restarted).
   * Taking over a live holder by mistake costs that holder its commit (its claim token no longer matches), never a
   * second effect.
   */
  private async takeOver(id: string[], fingerprint: string, token: string): Promise<boolean> {
    const { rowCount: taken } = await preparedStatement(
      this.dataSource,
      'idempotency.take-over',
      `UPDATE idempotency_keys
       SET fingerprint = $5, state = 'in_flight', claim_token = $6, locked_until = now() + make_interval(secs => $7),
           response_status = NULL, response_body = NULL, created_at = now(), expires_at = now() + make_interval(secs => $8)
       WHERE user_id = $1 AND workspace_id = $2 AND operation = $3 AND key = $4
         AND (expires_at <= now() OR (state = 'in_flight' AND fingerprint = $5 AND (locked_until <= now()
           OR (created_at <= now() - make_interval(secs => $9) AND pg_try_advisory_xact_lock(hashtextextended(claim_token::text, 0))))))
       RETURNING 1`,
      [...id, fingerprint, token, this.leaseSeconds, this.retentionSeconds, this.holderGraceSeconds],
    );
    return taken === 1;
  }
}
