import { Injectable } from '@nestjs/common';
import {
  CreateWebhookRequest,
  ListWebhooksQuery,
  MAX_WEBHOOKS_PER_WORKSPACE,
  Principal,
  UpdateWebhookRequest,
  Webhook,
  WebhookCreated,
  WebhookList,
} from '@social/contracts';
import { AccessControl, changedRows, problems } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DestinationCheck } from './destination-check.js';
import { toWebhook, WEBHOOK_COLUMNS, type WebhookRow } from './webhook.row.js';
import { newWebhookSecret, ROTATION_OVERLAP_MS, WebhookSecrets } from './webhook-secrets.js';

export const NO_SUCH_WEBHOOK = 'No such webhook.';

/** Subscriptions: every operation needs the workspace's admin role (contract §10); another tenant's webhook is 404. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly destinations: DestinationCheck,
    private readonly secrets: WebhookSecrets,
  ) {}

  async create(principal: Principal, input: CreateWebhookRequest): Promise<WebhookCreated> {
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'admin', 'body');
    const url = await this.destinations.check(input.url);
    const id = uuidv7();
    const secret = newWebhookSecret();
    return this.dataSource.transaction(async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:${workspace.workspace_id}`]);
      const [{ count }] = await db.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM webhooks WHERE workspace_id = $1`, [
        workspace.workspace_id,
      ]);
      if (count >= MAX_WEBHOOKS_PER_WORKSPACE) {
        throw problems.conflict(
          'too_many_webhooks',
          `A workspace may have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one first.`,
        );
      }
      const [row] = await db.query<WebhookRow[]>(
        `INSERT INTO webhooks (id, workspace_id, url, events, description, secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, now(), now()) RETURNING ${WEBHOOK_COLUMNS}`,
        [id, workspace.workspace_id, url, input.events, input.description ?? '', this.secrets.seal(id, secret)],
      );
      return { secret, item: toWebhook(row) };
    });
  }

  async list(principal: Principal, query: ListWebhooksQuery): Promise<WebhookList> {
    const workspace = await this.access.requireWorkspace(principal, query.workspace_id, 'admin', 'query');
    const rows = await this.dataSource.query<WebhookRow[]>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspace.workspace_id],
    );
    return { webhooks: rows.map(toWebhook) };
  }

  async get(principal: Principal, id: string): Promise<Webhook> {
    return toWebhook(await this.findVisible(principal, id));
  }

  async update(principal: Principal, id: string, input: UpdateWebhookRequest): Promise<Webhook> {
    await this.findVisible(principal, id);
    const url = input.url === undefined ? null : await this.destinations.check(input.url);
    const [row] = await changedRows<WebhookRow>(
      this.dataSource.manager,
      `UPDATE webhooks SET url = coalesce($2, url), events = coalesce($3::text[], events), description = coalesce($4, description),
              active = coalesce($5, active),
              -- Turned on again: the failure streak that deactivated it starts over.
              failing_since = CASE WHEN $5::boolean AND NOT active THEN NULL ELSE failing_since END,
              updated_at = now()
        WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}`,
      [id, url, input.events ?? null, input.description ?? null, input.active ?? null],
    );
    if (!row) throw problems.notFound(NO_SUCH_WEBHOOK);
    return toWebhook(row);
  }

  /** Its delivery log goes with it (the events stay for the other subscriptions). */
  async delete(principal: Principal, id: string): Promise<void> {
    await this.findVisible(principal, id);
    await this.dataSource.query(`DELETE FROM webhooks WHERE id = $1`, [id]);
  }

  /** A new secret signs from now on; the one it replaces signs beside it for 24 hours (receivers switch without losing events). */
  async rotateSecret(principal: Principal, id: string): Promise<WebhookCreated> {
    await this.findVisible(principal, id);
    const secret = newWebhookSecret();
    const [row] = await changedRows<WebhookRow>(
      this.dataSource.manager,
      `UPDATE webhooks SET previous_secret = secret, previous_secret_until = now() + $3 * interval '1 millisecond', secret = $2,
              updated_at = now()
        WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}`,
      [id, this.secrets.seal(id, secret), ROTATION_OVERLAP_MS],
    );
    if (!row) throw problems.notFound(NO_SUCH_WEBHOOK);
    return { secret, item: toWebhook(row) };
  }

  /** The webhook the path names, if the caller is an admin of its workspace: 404 for outsiders, 403 for other roles. */
  findVisible(principal: Principal, id: string, db: EntityManager = this.dataSource.manager): Promise<WebhookRow> {
    return this.access.requireVisible(principal, () => findWebhook(db, id), 'admin', NO_SUCH_WEBHOOK);
  }
}

/** One webhook with `workspaceId` as AccessControl.requireVisible wants it, or null. */
export async function findWebhook(db: EntityManager, id: string): Promise<(WebhookRow & { workspaceId: string }) | null> {
  const [row] = await db.query<WebhookRow[]>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1`, [id]);
  return row ? { ...row, workspaceId: row.workspace_id } : null;
}
