import { SANDBOX_PROVIDER } from '@social/contracts';
import type { FieldError } from '@social/contracts';
import { problems } from '@social/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { PublicationSegmentEntity, type PublicationEntity } from '../publications/publication.entity.js';
import type { DeliveryOutcome, RenditionEntity, RenditionSegmentEntity } from '../publications/rendition.entity.js';
import { renderFor, type RenderedPart } from './render.js';

/** A target account as rendering needs it. */
export interface TargetAccount {
  id: string;
  platform: string;
  username: string;
  /** Per-network settings for its rendition: the social set member's `default_settings`, or the rendition's own when re-rendered. */
  settings?: Record<string, unknown>;
  /** Likewise the member's `default_output_profile`. */
  output_profile?: string;
}

/** A target whose network cannot take the publication as it is. */
export interface RenderRefusal {
  account: TargetAccount;
  reason: string;
}

/** The rows an UPDATE or DELETE … RETURNING gave back (TypeORM answers those statements with [rows, count]). */
export async function changedRows<T = { id: string }>(db: EntityManager | DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const [rows] = (await db.query(sql, params)) as [T[], number];
  return rows;
}

/** The channel a replica's scheduler LISTENs on; NOTIFY'd in the transaction that makes a rendition due now. */
export const deliveryChannel = (schema: string): string => `${schema}_delivery_due`;

/** Tells every scheduler replica, at commit, that something is due now. */
export async function notifyDue(db: EntityManager): Promise<void> {
  await db.query(`SELECT pg_notify(current_schema() || '_delivery_due', '')`);
}

/** Renders the publication for each account: the parts per account, or every refusal. */
export function renderAll(
  publication: PublicationEntity,
  segments: PublicationSegmentEntity[],
  accounts: TargetAccount[],
): { parts: Map<string, RenderedPart[]>; refusals: RenderRefusal[] } {
  const parts = new Map<string, RenderedPart[]>();
  const refusals: RenderRefusal[] = [];
  for (const account of accounts) {
    const result = renderFor(account.platform, {
      contentProfile: publication.contentProfile,
      title: publication.title,
      sourceText: publication.sourceText,
      sourceUrl: publication.sourceUrl,
      segments: segments.map((segment) => ({ id: segment.id, title: segment.title, body: segment.body, url: segment.url })),
    });
    if (result.ok) parts.set(account.id, result.parts);
    else refusals.push({ account, reason: result.reason });
  }
  return { parts, refusals };
}

/** Where a rendition or segment landed and why it failed, before any attempt: nowhere, no error. */
const NOT_DELIVERED: DeliveryOutcome = {
  externalId: '',
  externalUrl: '',
  errorAction: '',
  errorCode: '',
  errorKind: '',
  errorMessage: '',
  errorHttpStatus: 0,
  errorRetryable: false,
  errorRetryAt: null,
};

/**
 * Replaces the publication's renditions by one per account, each due at
 * `dueAt` plus a random 0…`randomDelayMinutes` minutes of its own
 * (contract §4), its segments mirroring the rendered parts.
 */
export async function replaceRenditions(
  db: EntityManager,
  publication: PublicationEntity,
  accounts: TargetAccount[],
  parts: Map<string, RenderedPart[]>,
  dueAt: Date,
  randomDelayMinutes: number,
): Promise<void> {
  await db.query(`DELETE FROM renditions WHERE publication_id = $1`, [publication.id]);
  const now = new Date();
  const renditions: Array<RenditionEntity & { nextActionAt: Date }> = [];
  const segments: RenditionSegmentEntity[] = [];
  for (const account of accounts) {
    const rendered = parts.get(account.id) ?? [];
    const id = uuidv7();
    const delayMs = randomDelayMinutes > 0 ? Math.floor(Math.random() * (randomDelayMinutes * 60_000 + 1)) : 0;
    renditions.push({
      id,
      publicationId: publication.id,
      socialAccountId: account.id,
      platform: account.platform,
      targetKey: `${account.platform}:${account.id}`,
      profile: publication.contentProfile,
      outputProfile: account.output_profile ?? '',
      status: 'scheduled',
      title: publication.title,
      body: rendered.map((part) => part.text).join('\n\n'),
      description: '',
      formatLocked: false,
      scheduleOverride: '',
      media: [],
      settings: account.settings ?? {},
      ...NOT_DELIVERED,
      deliveryState: 'queued',
      deliveryRecoveryAction: 'none',
      deliveryTargetKey: account.platform === SANDBOX_PROVIDER ? `sandbox:${account.username}` : `${account.platform}:${account.username}`,
      deliveryCurrentAttemptId: null,
      deliveryCurrentAttemptNumber: 0,
      deliveryCurrentAttemptCreatedAt: null,
      deliveryTerminalReason: '',
      deliveryLastReconciledAt: null,
      deliveryNextReconciliationAt: null,
      createdAt: now,
      updatedAt: now,
      nextActionAt: new Date(dueAt.getTime() + delayMs),
    });
    rendered.forEach((part, position) =>
      segments.push({
        id: uuidv7(),
        renditionId: id,
        publicationSegmentId: part.segmentId,
        position,
        status: 'scheduled',
        title: part.title,
        body: part.text,
        description: '',
        url: part.link,
        titleOverride: '',
        bodyOverride: '',
        descriptionOverride: '',
        urlOverride: '',
        mediaInherited: true,
        media: [],
        settings: {},
        ...NOT_DELIVERED,
      }),
    );
  }
  if (renditions.length === 0) return;
  await db.query(
    `INSERT INTO renditions (id, publication_id, social_account_id, platform, target_key, profile, status, title, body,
       delivery_target_key, created_at, updated_at, next_action_at, output_profile, settings)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[], $14::text[], $15::jsonb[])`,
    [
      renditions.map((r) => r.id),
      renditions.map((r) => r.publicationId),
      renditions.map((r) => r.socialAccountId),
      renditions.map((r) => r.platform),
      renditions.map((r) => r.targetKey),
      renditions.map((r) => r.profile),
      renditions.map((r) => r.status),
      renditions.map((r) => r.title),
      renditions.map((r) => r.body),
      renditions.map((r) => r.deliveryTargetKey),
      renditions.map((r) => r.createdAt.toISOString()),
      renditions.map((r) => r.updatedAt.toISOString()),
      renditions.map((r) => r.nextActionAt.toISOString()),
      renditions.map((r) => r.outputProfile),
      renditions.map((r) => JSON.stringify(r.settings)),
    ],
  );
  if (segments.length === 0) return;
  await db.query(
    `INSERT INTO rendition_segments (id, rendition_id, publication_segment_id, position, status, title, body, url)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[])`,
    [
      segments.map((s) => s.id),
      segments.map((s) => s.renditionId),
      segments.map((s) => s.publicationSegmentId),
      segments.map((s) => s.position),
      segments.map((s) => s.status),
      segments.map((s) => s.title),
      segments.map((s) => s.body),
      segments.map((s) => s.url),
    ],
  );
}

/**
 * The publication's status from its renditions (contract §4): `publishing`
 * while any is still to be delivered, else `failed` when any failed, else
 * `published` (kept when none is left: its posts are live). Only for publications whose delivery has started (the
 * scheduler passes `deliveryStarted`; others leave scheduled ones alone).
 */
export async function deriveStatus(db: EntityManager, publicationId: string, deliveryStarted = false): Promise<void> {
  // The scheduler's writes start delivery (a scheduled publication whose rendition failed before its first call is no longer just scheduled).
  const from = deliveryStarted ? ['scheduled', 'publishing', 'published', 'failed'] : ['publishing', 'published', 'failed'];
  await db.query(
    `UPDATE publications p SET status = d.status, updated_at = now()
       FROM (SELECT CASE
                      WHEN count(*) FILTER (WHERE status IN ('draft', 'ready', 'scheduled', 'publishing')) > 0 THEN 'publishing'
                      WHEN count(*) FILTER (WHERE status = 'failed') > 0 THEN 'failed'
                      WHEN count(*) = 0 THEN 'draft'
                      ELSE 'published' END AS status
               FROM renditions WHERE publication_id = $1) d
      WHERE p.id = $1 AND p.status = ANY($2::text[]) AND p.status <> d.status
        -- A published publication whose renditions all went (their accounts disconnected) stays published: its posts are live.
        AND NOT (p.status = 'published' AND d.status = 'draft')`,
    [publicationId, from],
  );
}

/** PATCH of a scheduled publication: its renditions are rendered again for the same accounts and due time. */
export async function rerenderRenditions(db: EntityManager, publication: PublicationEntity): Promise<void> {
  const existing: TargetAccount[] = await db.query(
    `SELECT a.id, a.platform, a.username, r.settings, r.output_profile FROM renditions r JOIN social_accounts a ON a.id = r.social_account_id
      WHERE r.publication_id = $1 ORDER BY r.created_at, r.id`,
    [publication.id],
  );
  if (existing.length === 0 || !publication.scheduledAt) return;
  const segments = await db.getRepository(PublicationSegmentEntity).find({ where: { publicationId: publication.id }, order: { position: 'ASC' } });
  const { parts, refusals } = renderAll(publication, segments, existing);
  if (refusals.length > 0) {
    const errors: FieldError[] = refusals.map(({ account, reason }) => ({
      location: 'body',
      message: `the scheduled ${account.platform} account @${account.username} (${account.id}) cannot take it: the text ${reason}`,
    }));
    throw problems.validation(errors, errors.map((error) => error.message).join('; ') + '.');
  }
  await replaceRenditions(db, publication, existing, parts, publication.scheduledAt, publication.randomDelayMinutes);
}
