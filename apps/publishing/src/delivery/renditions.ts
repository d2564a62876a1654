import { PUBLICATION_FAILED_SUBJECT, PUBLICATION_PUBLISHED_SUBJECT, SANDBOX_PROVIDER } from '@social/contracts';
import type { AttachedMedia, FieldError, PreviewProblem, PublicationOutcomeEvent, PublicationStatus } from '@social/contracts';
import { enqueueEvent, preparedQuery, Problem } from '@social/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { PublicationSegmentEntity, type PublicationEntity } from '../publications/publication.entity.js';
import type { DeliveryOutcome, RenditionEntity, RenditionSegmentEntity } from '../publications/rendition.entity.js';
import { attachedOf, mediaIdsOf } from '../media/attached-media.js';
import { loadMediaFacts } from '../media/media-facts.store.js';
import { NETWORK_RULES_CODE, ruleProblems } from '../publications/network-rules-check.js';
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

/** The channel a replica's scheduler LISTENs on; NOTIFY'd in the transaction that makes a rendition due now. */
export const deliveryChannel = (schema: string): string => `${schema}_delivery_due`;

/** Tells every scheduler replica, at commit, that something is due now. */
export async function notifyDue(db: EntityManager): Promise<void> {
  await db.query(`SELECT pg_notify(current_schema() || '_delivery_due', '')`);
}

/** One account's version of one publication segment (docs/decisions.md): "" keeps inheriting; `media` null inherits the segment's. */
export interface SegmentOverride {
  title: string;
  body: string;
  description: string;
  url: string;
  media: AttachedMedia[] | null;
}

/** A rendition's overrides as stored (jsonb by publication segment; any member may be missing). */
interface StoredOverridesRow {
  social_account_id: string;
  segment_overrides: Record<string, Partial<Record<keyof SegmentOverride, unknown>>>;
}

/** A rendition whose id stays with its account when the publication is rendered again. */
interface KeptRenditionRow {
  id: string;
  social_account_id: string;
}

/** Overrides by account, then by publication segment. */
export type Overrides = Map<string, Map<string, SegmentOverride>>;

const NO_OVERRIDE: SegmentOverride = { title: '', body: '', description: '', url: '', media: null };

/** The overrides the publication's renditions hold now (read before they are rendered again, so that they survive it). */
export async function readOverrides(db: EntityManager | DataSource, publicationId: string): Promise<Overrides> {
  const rows = await db.query<StoredOverridesRow[]>(
    `SELECT social_account_id, segment_overrides FROM renditions WHERE publication_id = $1`,
    [publicationId],
  );
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const overrides: Overrides = new Map();
  for (const row of rows) {
    const byAccount = new Map<string, SegmentOverride>();
    for (const [segmentId, stored] of Object.entries(row.segment_overrides ?? {})) {
      byAccount.set(segmentId, {
        title: text(stored.title),
        body: text(stored.body),
        description: text(stored.description),
        url: text(stored.url),
        media: Array.isArray(stored.media) ? attachedOf(stored.media) : null,
      });
    }
    if (byAccount.size > 0) overrides.set(row.social_account_id, byAccount);
  }
  return overrides;
}

/** What is worth keeping of an account's overrides: those of the publication's segments that override something. */
function keptOverrides(mine: Map<string, SegmentOverride>, segmentIds: ReadonlySet<string>): Record<string, SegmentOverride> {
  return Object.fromEntries(
    [...mine].filter(
      ([segmentId, o]) =>
        segmentIds.has(segmentId) && (o.title !== '' || o.body !== '' || o.description !== '' || o.url !== '' || o.media !== null),
    ),
  );
}

const orDefault = (override: string, inherited: string): string => (override !== '' ? override : inherited);

/** What each account's network receives, and every way it breaks the network's rules (none: it can be sent). */
export interface RenderOutcome {
  parts: Map<string, RenderedPart[]>;
  problems: Map<string, PreviewProblem[]>;
}

/** Renders the publication for each account (its overrides applied) and checks each against its network's table. */
export async function renderChecked(
  db: EntityManager | DataSource,
  publication: PublicationEntity,
  segments: PublicationSegmentEntity[],
  accounts: TargetAccount[],
  overrides: Overrides = new Map(),
): Promise<RenderOutcome> {
  const parts = new Map<string, RenderedPart[]>();
  const found = new Map<string, PreviewProblem[]>();
  const rendered: Array<{ account: TargetAccount; parts: RenderedPart[]; refusal?: string }> = [];
  for (const account of accounts) {
    const mine = overrides.get(account.id) ?? new Map<string, SegmentOverride>();
    const result = renderFor(account.platform, {
      contentProfile: publication.contentProfile,
      title: publication.title,
      sourceText: publication.sourceText,
      sourceUrl: publication.sourceUrl,
      media: attachedOf(publication.media),
      segments: segments.map((segment) => {
        const override = mine.get(segment.id) ?? NO_OVERRIDE;
        return {
          id: segment.id,
          title: orDefault(override.title, segment.title),
          body: orDefault(override.body, segment.body),
          url: orDefault(override.url, segment.url),
          description: orDefault(override.description, segment.description),
          media: override.media ?? attachedOf(segment.media),
        };
      }),
    });
    if (result.ok) {
      parts.set(account.id, result.parts);
      rendered.push({ account, parts: result.parts });
    } else {
      rendered.push({ account, parts: [], refusal: result.reason });
    }
  }
  const facts = await loadMediaFacts(db, mediaIdsOf(rendered.flatMap((entry) => entry.parts.map((part) => part.media))));
  for (const entry of rendered)
    found.set(entry.account.id, ruleProblems(entry.account.id, entry.account.platform, entry.parts, facts, entry.refusal));
  return { parts, problems: found };
}

/** 422 `network_rules` (docs/decisions.md): one entry per problem, nothing changed. */
export function networkRulesProblem(found: Map<string, PreviewProblem[]>): Problem | null {
  const errors: FieldError[] = [...found.values()].flat().map((problem) => ({ location: problem.location, message: problem.message }));
  if (errors.length === 0) return null;
  return new Problem(
    422,
    NETWORK_RULES_CODE,
    `Some targets' networks cannot take the publication: ${errors.map((error) => `${error.location} ${error.message}`).join('; ')}.`,
    { errors },
  );
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
 * (docs/decisions.md), its segments mirroring the rendered parts. An account that
 * had a rendition keeps its id and the overrides given (docs/decisions.md: a later
 * PATCH re-renders but keeps them); each part's `media` is its effective media.
 */
export async function replaceRenditions(
  db: EntityManager,
  publication: PublicationEntity,
  accounts: TargetAccount[],
  parts: Map<string, RenderedPart[]>,
  dueAt: Date,
  randomDelayMinutes: number,
  overrides: Overrides = new Map(),
): Promise<void> {
  const previous = await db.query<KeptRenditionRow[]>(`SELECT id, social_account_id FROM renditions WHERE publication_id = $1`, [
    publication.id,
  ]);
  const keptIds = new Map(previous.map((row) => [row.social_account_id, row.id]));
  // Overrides of segments the publication no longer has are dropped (docs/decisions.md).
  const segmentIds = new Set(
    (
      await db.query<Array<Pick<PublicationSegmentEntity, 'id'>>>(`SELECT id FROM publication_segments WHERE publication_id = $1`, [
        publication.id,
      ])
    ).map((row) => row.id),
  );
  const storedOverrides: string[] = [];
  await db.query(`DELETE FROM renditions WHERE publication_id = $1`, [publication.id]);
  const now = new Date();
  const renditions: Array<RenditionEntity & { nextActionAt: Date }> = [];
  const segments: RenditionSegmentEntity[] = [];
  for (const account of accounts) {
    const rendered = parts.get(account.id) ?? [];
    const id = keptIds.get(account.id) ?? uuidv7();
    const mine = overrides.get(account.id) ?? new Map<string, SegmentOverride>();
    storedOverrides.push(JSON.stringify(keptOverrides(mine, segmentIds)));
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
      // Every part's media, in the order the account's network receives them.
      media: rendered.flatMap((part) => part.media).map((media, order) => ({ ...media, display_order: order })),
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
    rendered.forEach((part, position) => {
      const override = (part.segmentId && mine.get(part.segmentId)) || NO_OVERRIDE;
      // The media override lives on the segment's first part (the one its media go with).
      const firstOfSegment = part.segmentId !== null && rendered.findIndex((other) => other.segmentId === part.segmentId) === position;
      segments.push({
        id: uuidv7(),
        renditionId: id,
        publicationSegmentId: part.segmentId,
        position,
        status: 'scheduled',
        title: part.title,
        body: part.text,
        description: part.description,
        url: part.link,
        titleOverride: override.title,
        bodyOverride: override.body,
        descriptionOverride: override.description,
        urlOverride: override.url,
        mediaInherited: !(firstOfSegment && override.media !== null),
        media: part.media,
        settings: {},
        ...NOT_DELIVERED,
      });
    });
  }
  if (renditions.length === 0) return;
  await db.query(
    `INSERT INTO renditions (id, publication_id, social_account_id, platform, target_key, profile, status, title, body,
       delivery_target_key, created_at, updated_at, next_action_at, output_profile, settings, media, segment_overrides)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[], $14::text[], $15::jsonb[], $16::jsonb[], $17::jsonb[])`,
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
      renditions.map((r) => JSON.stringify(r.media)),
      storedOverrides,
    ],
  );
  if (segments.length === 0) return;
  await db.query(
    `INSERT INTO rendition_segments (id, rendition_id, publication_segment_id, position, status, title, body, url, description,
       title_override, body_override, description_override, url_override, media_inherited, media)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[], $11::text[], $12::text[], $13::text[], $14::bool[], $15::jsonb[])`,
    [
      segments.map((s) => s.id),
      segments.map((s) => s.renditionId),
      segments.map((s) => s.publicationSegmentId),
      segments.map((s) => s.position),
      segments.map((s) => s.status),
      segments.map((s) => s.title),
      segments.map((s) => s.body),
      segments.map((s) => s.url),
      segments.map((s) => s.description),
      segments.map((s) => s.titleOverride),
      segments.map((s) => s.bodyOverride),
      segments.map((s) => s.descriptionOverride),
      segments.map((s) => s.urlOverride),
      segments.map((s) => s.mediaInherited),
      segments.map((s) => JSON.stringify(s.media)),
    ],
  );
}

/**
 * The publication's status from its renditions (docs/decisions.md): `publishing`
 * while any is still to be delivered, else `failed` when any failed, else
 * `published` (kept when none is left: its posts are live). Only for publications whose delivery has started (the
 * scheduler passes `deliveryStarted`; others leave scheduled ones alone).
 */
export async function deriveStatus(db: EntityManager, publicationId: string, deliveryStarted = false): Promise<void> {
  // The scheduler's writes start delivery (a scheduled publication whose
  // rendition failed before its first call is no longer just scheduled).
  const from: PublicationStatus[] = deliveryStarted
    ? ['scheduled', 'publishing', 'published', 'failed']
    : ['publishing', 'published', 'failed'];
  // Hand-written SQL, not TypeORM: the status follows from every rendition in one statement, on the scheduler's measured hot path.
  // Named: every delivery outcome runs it while holding the publication's lock.
  const [changed] = await preparedQuery<DerivedStatusRow>(
    db,
    'publishing.publications.derive-status',
    `UPDATE publications p SET status = d.status, updated_at = now()
       FROM (SELECT CASE
                      WHEN count(*) FILTER (WHERE status IN ('draft', 'ready', 'scheduled', 'publishing')) > 0 THEN 'publishing'
                      WHEN count(*) FILTER (WHERE status = 'failed') > 0 THEN 'failed'
                      WHEN count(*) = 0 THEN 'draft'
                      ELSE 'published' END AS status
               FROM renditions WHERE publication_id = $1) d
      WHERE p.id = $1 AND p.status = ANY($2::text[]) AND p.status <> d.status
        -- A published publication whose renditions all went (their accounts disconnected) stays published: its posts are live.
        AND NOT (p.status = 'published' AND d.status = 'draft')
      RETURNING p.workspace_id, p.status`,
    [publicationId, from],
  );
  // Reaching an outcome is an event of its own (webhooks' publication.published / .failed), in the same transaction.
  const subject =
    changed?.status === 'published' ? PUBLICATION_PUBLISHED_SUBJECT : changed?.status === 'failed' ? PUBLICATION_FAILED_SUBJECT : null;
  if (!subject) return;
  await enqueueEvent(db, subject, {
    workspace_id: changed.workspace_id,
    publication_id: publicationId,
    status: changed.status,
    occurred_at: new Date().toISOString(),
  } satisfies PublicationOutcomeEvent);
}

interface DerivedStatusRow {
  workspace_id: string;
  status: PublicationStatus;
}

/** The accounts of the publication's renditions, with the renditions' own settings, in their order. */
export function renditionAccounts(db: EntityManager, publicationId: string): Promise<TargetAccount[]> {
  return db.query<TargetAccount[]>(
    `SELECT a.id, a.platform, a.username, r.settings, r.output_profile FROM renditions r
       JOIN social_accounts a ON a.id = r.social_account_id
      WHERE r.publication_id = $1 ORDER BY r.created_at, r.id`,
    [publicationId],
  );
}

/**
 * A scheduled publication's renditions rendered again for the same accounts and due time, their
 * overrides kept (docs/decisions.md: PATCH re-renders, and is checked against the networks' rules like
 * schedule: 422 `network_rules`, and the caller's transaction changes nothing).
 */
export async function rerenderRenditions(db: EntityManager, publication: PublicationEntity): Promise<void> {
  const existing = await renditionAccounts(db, publication.id);
  if (existing.length === 0 || !publication.scheduledAt) return;
  const segments = await db
    .getRepository(PublicationSegmentEntity)
    .find({ where: { publicationId: publication.id }, order: { position: 'ASC' } });
  const overrides = await readOverrides(db, publication.id);
  const { parts, problems } = await renderChecked(db, publication, segments, existing, overrides);
  const refusal = networkRulesProblem(problems);
  if (refusal) throw refusal;
  await replaceRenditions(db, publication, existing, parts, publication.scheduledAt, publication.randomDelayMinutes, overrides);
}
