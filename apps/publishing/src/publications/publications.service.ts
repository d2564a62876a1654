import { Inject, Injectable } from '@nestjs/common';
import {
  CreatePublicationRequest,
  EDITABLE_PUBLICATION_STATUSES,
  HttpReply,
  ListPublicationsQuery,
  Principal,
  Publication,
  PublicationList,
  PUBLICATIONS_PAGE_DEFAULT,
  PublicationOperations,
  UpdatePublicationRequest,
  WorkspaceRole,
} from '@social/contracts';
import {
  AccessControl,
  createdAtPosition,
  CursorCodec,
  entityColumns,
  entityFromJson,
  entityInsert,
  IdempotentRequests,
  isCreatedAtPosition,
  preparedQuery,
  problems,
  SERVICE_CONFIG,
} from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { PublishingConfig } from '../config.js';
import { rerenderRenditions } from '../delivery/renditions.js';
import { toAttachedList } from '../media/attached-media.js';
import { MediaFactsStore } from '../media/media-facts.store.js';
import { PublicationEntity, PublicationSegmentEntity } from './publication.entity.js';
import { checkKeptSegments, mediaReferencesOf, replaceSegments, withMediaViews } from './publication-media.js';
import { LoadedPublication, toPublication } from './publication.mapper.js';
import { RenditionEntity, RenditionSegmentEntity } from './rendition.entity.js';

/**
 * The select list of a publication's children as JSON, each list in its read order (segments and a rendition's
 * segments by position, renditions by creation), for the publication whose id is `publicationId`: a page and
 * everything it shows are one statement (docs/performance.md).
 */
function childrenJson(publicationId: string): string {
  const renditionSegments = 'SELECT json_agg(rs ORDER BY rs.position) FROM rendition_segments rs WHERE rs.rendition_id = r.id';
  return `(SELECT json_agg(s ORDER BY s.position) FROM publication_segments s WHERE s.publication_id = ${publicationId}) AS "segmentsJson",
    (SELECT json_agg(json_build_array(r, (${renditionSegments})) ORDER BY r.created_at, r.id)
       FROM renditions r WHERE r.publication_id = ${publicationId}) AS "renditionsJson"`;
}

/** A row's children as `childrenJson` wrote them (null: none). */
interface ChildrenJson {
  segmentsJson: Array<Record<string, unknown>> | null;
  renditionsJson: Array<[Record<string, unknown>, Array<Record<string, unknown>> | null]> | null;
}

@Injectable()
export class PublicationsService {
  private readonly idempotency: IdempotentRequests;
  /** E15's insert, named: TypeORM's built its SQL on every call and PostgreSQL planned it every time. */
  private readonly insertPublication: ReturnType<typeof entityInsert<PublicationEntity>>;
  private readonly cursors: CursorCodec;
  /** The select list in the entity's shape, for the page that skips TypeORM's hydration. */
  private readonly publicationColumns: string;
  /** Children rows from `childrenJson` in their entities' shapes. */
  private readonly fromJson: {
    segment: (json: Record<string, unknown>) => PublicationSegmentEntity;
    rendition: (json: Record<string, unknown>) => RenditionEntity;
    renditionSegment: (json: Record<string, unknown>) => RenditionSegmentEntity;
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    @Inject(SERVICE_CONFIG) config: PublishingConfig,
    private readonly mediaFacts: MediaFactsStore,
  ) {
    this.idempotency = new IdempotentRequests(dataSource);
    this.insertPublication = entityInsert(dataSource, PublicationEntity, 'publishing.publications.insert');
    this.cursors = CursorCodec.derive(config.SECRETS_KEY, 'publications');
    this.publicationColumns = entityColumns(dataSource, PublicationEntity, 'p');
    this.fromJson = {
      segment: entityFromJson(dataSource, PublicationSegmentEntity),
      rendition: entityFromJson(dataSource, RenditionEntity),
      renditionSegment: entityFromJson(dataSource, RenditionSegmentEntity),
    };
  }

  /** E15: a draft at revision 1; with an Idempotency-Key, once per key (a repeat replays the first answer). */
  async create(principal: Principal, input: CreatePublicationRequest, idempotencyKey: string | null): Promise<HttpReply<Publication>> {
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const scope = {
      key: idempotencyKey,
      userId: principal.userId,
      workspaceId: workspace.workspace_id,
      operation: PublicationOperations.create.subject,
      // The workspace as stored, so the same UUID in another letter case is the same request.
      request: { ...input, workspace_id: workspace.workspace_id },
    };
    return this.idempotency.run(scope, async (db) => {
      const now = new Date();
      const publication: PublicationEntity = {
        id: uuidv7(),
        workspaceId: workspace.workspace_id,
        status: 'draft',
        revision: 1,
        contentProfile: input.content_profile,
        title: input.title,
        sourceText: input.source_text,
        sourceUrl: '',
        audience: '',
        goal: '',
        intent: '',
        creationPreset: '',
        socialSetId: null,
        metadata: {},
        media: [],
        randomDelayInherited: true,
        randomDelayMinutes: 0,
        repostOverride: {},
        scheduledAt: null,
        actualRunAt: null,
        failureDismissedAt: null,
        createdBy: principal.userId,
        createdAt: now,
        updatedAt: now,
      };
      await this.insertPublication(db, publication);
      return { status: 201, body: toPublication({ publication, segments: [], renditions: [] }) };
    });
  }

  /** Newest first, resumed after the cursor's position: one index range scan per page, however many rows. */
  async list(principal: Principal, query: ListPublicationsQuery): Promise<PublicationList> {
    const workspace = await this.access.requireWorkspace(principal, query.workspace_id, 'viewer', 'query');
    const range = query.from !== undefined && query.to !== undefined ? { from: query.from, to: query.to } : undefined;
    // A cursor works only with the filters it was issued for; lists without a range keep their cursors' filters as they were.
    const filters = { workspace_id: workspace.workspace_id, status: query.status ?? '', ...range };
    // `cursor=` (the last page's empty next_cursor passed back) means the first page.
    const after = query.cursor ? this.cursors.decode(query.cursor, filters, isCreatedAtPosition) : undefined;
    const limit = query.limit ?? PUBLICATIONS_PAGE_DEFAULT;
    // A prepared statement per filter combination, rows in the entity's shape: the list is the hot read (docs/performance.md).
    const values: unknown[] = [workspace.workspace_id];
    const conditions = ['p.workspace_id = $1'];
    if (query.status !== undefined) conditions.push(`p.status = $${values.push(query.status)}`);
    if (range) {
      // A publication's time on a calendar: when it went out, else when it is due (publications_workspace_time_idx).
      conditions.push(`COALESCE(p.actual_run_at, p.scheduled_at) >= $${values.push(range.from)}::timestamptz`);
      conditions.push(`COALESCE(p.actual_run_at, p.scheduled_at) < $${values.push(range.to)}::timestamptz`);
    }
    if (after) conditions.push(`(p.created_at, p.id) < ($${values.push(after.at)}::timestamptz, $${values.push(after.id)}::uuid)`);
    const rows = await preparedQuery<PublicationEntity & ChildrenJson>(
      this.dataSource,
      [
        'publishing.publications.page-with-children',
        query.status === undefined ? 'all' : 'status',
        range ? 'range' : 'any',
        after ? 'after' : 'first',
      ].join('.'),
      `SELECT ${this.publicationColumns}, ${childrenJson('p.id')} FROM publications p WHERE ${conditions.join(' AND ')}
       ORDER BY p.created_at DESC, p.id DESC LIMIT $${values.push(limit + 1)}`,
      values,
    );
    const more = rows.length > limit;
    const publications = rows.slice(0, limit);
    const last = publications[publications.length - 1];
    return {
      publications: await this.shown(
        this.dataSource.manager,
        publications.map((row) => this.loaded(row)),
      ),
      next_cursor: more ? this.cursors.encode(createdAtPosition(last), filters) : '',
    };
  }

  async get(principal: Principal, id: string): Promise<Publication> {
    const publication = await this.findVisible(principal, id, 'viewer');
    const [answer] = await this.withChildren(this.dataSource.manager, [publication]);
    return answer;
  }

  /** The publication as it is now, for an operation that already checked access. */
  /** The publication as the API shows it; within `db`'s transaction, as that transaction sees it. */
  async read(id: string, db: EntityManager = this.dataSource.manager): Promise<Publication> {
    const publication = await db.getRepository(PublicationEntity).findOneBy({ id });
    if (!publication) throw problems.notFound('No such publication.');
    const [answer] = await this.withChildren(db, [publication]);
    return answer;
  }

  /**
   * Applies the members sent, if the caller's revision is still the stored one
   * and the status allows edits. Both conditions sit in the UPDATE's WHERE, so
   * of two racing edits on one revision exactly one wins.
   */
  async update(principal: Principal, id: string, input: UpdatePublicationRequest): Promise<Publication> {
    const found = await this.findVisible(principal, id, 'editor');
    // A stale or uneditable publication is refused before its media are looked up (409 before 422).
    if (found.revision !== input.expected_revision || !EDITABLE_PUBLICATION_STATUSES.includes(found.status)) {
      throw await this.whyNotUpdated(this.dataSource.manager, id, input.expected_revision);
    }
    if (input.segments !== undefined) {
      const existing: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM publication_segments WHERE publication_id = $1`, [
        id,
      ]);
      checkKeptSegments(input.segments, new Set(existing.map((row) => row.id)));
    }
    // Outside the transaction: no row stays locked while media answers.
    const resolved = await this.mediaFacts.resolveReady(principal, found.workspaceId, mediaReferencesOf(input));
    return this.dataSource.transaction(async (db) => {
      const sent: Partial<PublicationEntity> = {
        title: input.title,
        sourceText: input.source_text,
        contentProfile: input.content_profile,
        audience: input.audience,
        goal: input.goal,
        intent: input.intent,
        sourceUrl: input.source_url,
        metadata: input.metadata,
        randomDelayMinutes: input.random_delay_minutes,
        randomDelayInherited: input.random_delay_minutes === undefined ? undefined : false,
        media: input.media === undefined ? undefined : toAttachedList(input.media),
      };
      // Members left out keep their stored values.
      const changes = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined)) as Partial<PublicationEntity>;
      const result = await db
        .createQueryBuilder()
        .update(PublicationEntity)
        .set({ ...changes, revision: () => 'revision + 1', updatedAt: new Date() })
        .where('id = :id AND revision = :revision AND status IN (:...editable)', {
          id,
          revision: input.expected_revision,
          editable: EDITABLE_PUBLICATION_STATUSES,
        })
        .execute();
      if (result.affected !== 1) throw await this.whyNotUpdated(db, id, input.expected_revision);
      await this.mediaFacts.record(db, resolved);
      if (input.segments !== undefined) await replaceSegments(db, id, input.segments);
      const updated = await db.getRepository(PublicationEntity).findOneByOrFail({ id });
      // A scheduled publication's renditions follow the edit (docs/decisions.md: PATCH re-renders).
      if (updated.status === 'scheduled') await rerenderRenditions(db, updated);
      const [answer] = await this.withChildren(db, [updated]);
      return answer;
    });
  }

  /**
   * Its segments, renditions and attempts go with it (ON DELETE CASCADE). Not
   * while it is publishing (409 publication_publishing): a rendition may be
   * on its way to a network, and its outcome must have somewhere to land.
   */
  async delete(principal: Principal, id: string): Promise<void> {
    await this.findVisible(principal, id, 'editor');
    const deleted = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(PublicationEntity)
      .where(`id = :id AND status <> 'publishing'`, { id })
      .execute();
    if (deleted.affected === 0 && (await this.dataSource.getRepository(PublicationEntity).existsBy({ id }))) {
      throw problems.conflict(
        'publication_publishing',
        'A publishing publication cannot be deleted; wait until its renditions are delivered.',
      );
    }
  }

  /** A path-addressed publication: 404 unless the caller can see its workspace, 403 when their role is below `need`. */
  findVisible(principal: Principal, id: string, need: WorkspaceRole): Promise<PublicationEntity> {
    return this.access.requireVisible(
      principal,
      () => this.dataSource.getRepository(PublicationEntity).findOneBy({ id }),
      need,
      'No such publication.',
    );
  }

  /** The refused UPDATE, explained from the row as it is now: gone, moved on, or no longer editable. */
  async whyNotUpdated(db: EntityManager, id: string, expectedRevision: number) {
    const current = await db.getRepository(PublicationEntity).findOneBy({ id });
    if (!current) return problems.notFound('No such publication.');
    if (current.revision !== expectedRevision) {
      return problems.revisionConflict('publication', current.revision, expectedRevision);
    }
    return problems.conflict(
      'publication_not_editable',
      `A ${current.status} publication cannot be changed; only ${EDITABLE_PUBLICATION_STATUSES.join(' and ')} ones can.`,
    );
  }

  /** The publications with their children and media views: one statement, whatever their number. */
  private async withChildren(db: EntityManager, publications: PublicationEntity[]): Promise<Publication[]> {
    if (publications.length === 0) return [];
    // By the ids given (unnest: a generic plan of `= ANY` may guess the array large and scan).
    const rows = await preparedQuery<{ id: string } & ChildrenJson>(
      db,
      'publishing.publications.children',
      `SELECT wanted.id, ${childrenJson('wanted.id')} FROM unnest($1::uuid[]) AS wanted(id)`,
      [publications.map((publication) => publication.id)],
    );
    const childrenOf = new Map(rows.map((row) => [row.id, row]));
    return this.shown(
      db,
      publications.map((publication) => this.loaded({ ...publication, ...childrenOf.get(publication.id)! })),
    );
  }

  /** What the API shows of loaded publications: their media references as views of the media facts. */
  private async shown(db: EntityManager, loaded: LoadedPublication[]): Promise<Publication[]> {
    return (await withMediaViews(db, loaded)).map(toPublication);
  }

  /** A publication row with its `childrenJson` members, as the mapper takes it. */
  private loaded({ segmentsJson, renditionsJson, ...publication }: PublicationEntity & ChildrenJson): LoadedPublication {
    return {
      publication,
      segments: (segmentsJson ?? []).map(this.fromJson.segment),
      renditions: (renditionsJson ?? []).map(([rendition, segments]) => ({
        rendition: this.fromJson.rendition(rendition),
        segments: (segments ?? []).map(this.fromJson.renditionSegment),
      })),
    };
  }
}
