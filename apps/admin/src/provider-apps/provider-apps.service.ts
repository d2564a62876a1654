import { Inject, Injectable } from '@nestjs/common';
import {
  ProviderApp,
  ResolvedProviderApp,
  ResolveProviderAppRequest,
  SaveProviderAppRequest,
  SaveProviderAppResponse,
} from '@social/contracts';
import { changedCount, changedRows, isUuid, problems, SecretBox, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import type { ProviderAppRow } from './provider-app.row.js';
import { appKey, EnvironmentProviderApps, instanceUrlErrors, normalizeInstanceUrl } from './environment-apps.js';

const SECRET_MEMBERS = ['client_secret', 'bot_token', 'webhook_secret'] as const;
type SecretMember = (typeof SECRET_MEMBERS)[number];
const COLUMN: Record<SecretMember, string> = {
  client_secret: 'sealed_client_secret',
  bot_token: 'sealed_bot_token',
  webhook_secret: 'sealed_webhook_secret',
};

function toResolved(app: ProviderApp, clientSecret: string, botToken: string): ResolvedProviderApp {
  return {
    id: app.id,
    provider: app.provider,
    instance_url: app.instance_url,
    client_id: app.client_id,
    client_secret: clientSecret,
    bot_token: botToken,
    redirect_uri: app.redirect_uri,
    connection_mode: app.connection_mode,
    source: app.source as ResolvedProviderApp['source'],
  };
}

const managedByEnvironment = () =>
  problems.conflict('managed_by_environment', 'This provider app is configured through the environment; change it there.');

@Injectable()
export class ProviderAppsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly environment: EnvironmentProviderApps,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The app in effect for (provider, instance_url), as E4 shows it: an
   * environment app shadows a database one. null when none is, when the one in
   * effect is inactive, or when its stored secret no longer opens (logged: an
   * administrator saves it again).
   */
  async resolve(request: ResolveProviderAppRequest): Promise<ResolvedProviderApp | null> {
    const provider = String(request?.provider ?? '');
    const instanceUrl = request?.instance_url ? normalizeInstanceUrl(String(request.instance_url)) : '';
    if (instanceUrl === undefined) return null;
    const fromEnvironment = this.environment.get(provider, instanceUrl);
    if (fromEnvironment) {
      const { app, secrets } = fromEnvironment;
      return app.is_active ? toResolved(app, secrets.client_secret, secrets.bot_token) : null;
    }
    const [row] = await this.dataSource.query<ProviderAppRow[]>(`SELECT * FROM provider_apps WHERE provider = $1 AND instance_url = $2`, [
      provider,
      instanceUrl,
    ]);
    if (!row?.is_active) return null;
    const opened: Record<'client_secret' | 'bot_token', string> = { client_secret: '', bot_token: '' };
    for (const member of ['client_secret', 'bot_token'] as const) {
      const sealed = row[COLUMN[member] as `sealed_${typeof member}`];
      if (sealed === null) continue;
      try {
        opened[member] = this.secrets.open(sealed, `provider_apps:${appKey(provider, instanceUrl)}:${member}`);
      } catch {
        this.logger.error(
          { provider_app_id: row.id, member },
          'cannot open a secret of a provider app (SECRETS_KEY changed or row damaged); treating the app as not configured',
        );
        return null;
      }
    }
    return toResolved(this.toProviderApp(row), opened.client_secret, opened.bot_token);
  }

  /** E4: environment apps and database apps, by provider and instance; a database app an environment one shadows says so. */
  async list(): Promise<ProviderApp[]> {
    const rows = await this.dataSource.query<ProviderAppRow[]>(`SELECT * FROM provider_apps`);
    const apps = [...this.environment.list(), ...rows.map((row) => this.toProviderApp(row))];
    return apps.sort(
      (a, b) =>
        a.provider.localeCompare(b.provider) ||
        a.instance_url.localeCompare(b.instance_url) ||
        (a.source === 'environment' ? -1 : b.source === 'environment' ? 1 : 0),
    );
  }

  /** E3: upsert by (provider, instance_url); omitted members keep their stored value, "" clears a secret. */
  async save(input: SaveProviderAppRequest): Promise<SaveProviderAppResponse> {
    const errors = instanceUrlErrors(input, 'body.instance_url');
    if (errors.length > 0) throw problems.validation(errors, `${errors[0].location} ${errors[0].message}.`);
    const instanceUrl = input.instance_url ? normalizeInstanceUrl(input.instance_url) : '';
    if (instanceUrl === undefined) {
      throw problems.validation(
        [{ location: 'body.instance_url', message: 'must be a valid https URL', value: input.instance_url }],
        'body.instance_url must be a valid https URL.',
      );
    }
    if (this.environment.has(input.provider, instanceUrl)) throw managedByEnvironment();
    const context = (member: SecretMember) => `provider_apps:${appKey(input.provider, instanceUrl)}:${member}`;
    const sealed = (member: SecretMember): string | null | undefined => {
      const value = input[member];
      if (value === undefined) return undefined;
      return value === '' ? null : this.secrets.seal(value, context(member));
    };
    return this.dataSource.transaction(async (db) => {
      // One writer per key at a time: two first saves cannot both insert.
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`provider_apps:${appKey(input.provider, instanceUrl)}`]);
      const [existing] = await db.query<ProviderAppRow[]>(`SELECT * FROM provider_apps WHERE provider = $1 AND instance_url = $2`, [
        input.provider,
        instanceUrl,
      ]);
      let row: ProviderAppRow | undefined;
      if (existing) {
        const secretUpdates = SECRET_MEMBERS.filter((m) => sealed(m) !== undefined);
        [row] = await changedRows<ProviderAppRow>(
          db,
          `UPDATE provider_apps SET client_id = $2, name = COALESCE($3, name), redirect_uri = COALESCE($4, redirect_uri),
             connection_mode = COALESCE($5, connection_mode), is_active = COALESCE($6, is_active), updated_at = now()
             ${secretUpdates.map((m, i) => `, ${COLUMN[m]} = $${7 + i}`).join('')}
           WHERE id = $1 RETURNING *`,
          [
            existing.id,
            input.client_id,
            input.name ?? null,
            input.redirect_uri ?? null,
            input.connection_mode ?? null,
            input.is_active ?? null,
            ...secretUpdates.map((m) => sealed(m)),
          ],
        );
      }
      // Deletes take the same lock, so the row cannot vanish in between; should it anyway, the save creates it again.
      if (!row) {
        [row] = await db.query<ProviderAppRow[]>(
          `INSERT INTO provider_apps (id, provider, instance_url, name, client_id, sealed_client_secret, sealed_bot_token,
             sealed_webhook_secret, redirect_uri, connection_mode, is_active, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now(), now()) RETURNING *`,
          [
            uuidv7(),
            input.provider,
            instanceUrl,
            input.name ?? input.provider,
            input.client_id,
            sealed('client_secret') ?? null,
            sealed('bot_token') ?? null,
            sealed('webhook_secret') ?? null,
            input.redirect_uri ?? '',
            input.connection_mode ?? 'oauth',
            input.is_active ?? true,
          ],
        );
      }
      // Services that connect accounts read provider apps at start-up.
      return { app: this.toProviderApp(row!), existed: !!existing && row!.id === existing.id, requires_restart: true };
    });
  }

  async delete(id: string): Promise<void> {
    if (this.environment.isEnvironmentId(id)) throw managedByEnvironment();
    if (!isUuid(id)) throw problems.notFound('No such provider app.');
    const affected = await this.dataSource.transaction(async (db) => {
      const [app] = await db.query<Array<Pick<ProviderAppRow, 'provider' | 'instance_url'>>>(
        `SELECT provider, instance_url FROM provider_apps WHERE id = $1`,
        [id],
      );
      if (!app) return 0;
      // The lock of save(): a save in progress finishes first, and one after it sees the row gone.
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`provider_apps:${appKey(app.provider, app.instance_url)}`]);
      return changedCount(db, `DELETE FROM provider_apps WHERE id = $1`, [id]);
    });
    if (!affected) throw problems.notFound('No such provider app.');
  }

  private toProviderApp(row: ProviderAppRow): ProviderApp {
    return {
      id: row.id,
      provider: row.provider,
      name: row.name,
      client_id: row.client_id,
      secret_configured: row.sealed_client_secret !== null,
      bot_token_configured: row.sealed_bot_token !== null,
      bot_username: '',
      webhook_secret_configured: row.sealed_webhook_secret !== null,
      redirect_uri: row.redirect_uri,
      instance_url: row.instance_url,
      connection_mode: row.connection_mode,
      is_active: row.is_active,
      source: 'database',
      editable: true,
      deletable: true,
      shadowed_by_environment: this.environment.has(row.provider, row.instance_url),
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }
}
