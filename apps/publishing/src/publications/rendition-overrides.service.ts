import { Injectable } from '@nestjs/common';
import type { FieldError, Principal, Publication, PublicationStatus, UpdateRenditionRequest } from '@social/contracts';
import { problems } from '@social/platform';
import { DataSource } from 'typeorm';
import {
  networkRulesProblem,
  readOverrides,
  renderChecked,
  renditionAccounts,
  replaceRenditions,
  type SegmentOverride,
} from '../delivery/renditions.js';
import { toAttachedList } from '../media/attached-media.js';
import { MediaFactsStore, type MediaReference } from '../media/media-facts.store.js';
import { PublicationEntity, PublicationSegmentEntity } from './publication.entity.js';
import { PublicationsService } from './publications.service.js';

/**
 * `PATCH /publications/{id}/renditions/{rendition_id}` (docs/decisions.md "Renditions inherit"): one
 * account's version of a scheduled publication. Overrides are stored on the rendition's parts,
 * bound to their publication segments; the rendition is rendered again with them and checked
 * against its network's rules (422 `network_rules`, nothing changed), and the publication's
 * revision moves on.
 */
@Injectable()
export class RenditionOverrides {
  constructor(
    private readonly dataSource: DataSource,
    private readonly publications: PublicationsService,
    private readonly mediaFacts: MediaFactsStore,
  ) {}

  async update(principal: Principal, id: string, renditionId: string, input: UpdateRenditionRequest): Promise<Publication> {
    const found = await this.publications.findVisible(principal, id, 'editor');
    const [rendition]: Array<{ id: string; social_account_id: string; status: PublicationStatus }> = await this.dataSource.query(
      `SELECT id, social_account_id, status FROM renditions WHERE id = $1 AND publication_id = $2`,
      [renditionId, id],
    );
    if (!rendition) throw problems.notFound('No such rendition.');
    if (found.revision !== input.expected_revision)
      throw await this.publications.whyNotUpdated(this.dataSource.manager, id, input.expected_revision);
    if (found.status !== 'scheduled' || rendition.status !== 'scheduled') throw this.notOverridable(found.status);
    const segmentIds = new Set(
      ((await this.dataSource.query(`SELECT id FROM publication_segments WHERE publication_id = $1`, [id])) as Array<{ id: string }>).map(
        (row) => row.id,
      ),
    );
    this.checkSegments(input, segmentIds);
    const references: MediaReference[] = [];
    (input.segments ?? []).forEach((segment, index) =>
      (segment.media ?? []).forEach((media, mediaIndex) =>
        references.push({ mediaId: media.media_id, location: `body.segments[${index}].media[${mediaIndex}].media_id` }),
      ),
    );
    const resolved = await this.mediaFacts.resolveReady(principal, found.workspaceId, references);
    await this.dataSource.transaction(async (db) => {
      // Still scheduled, still undelivered, still at the caller's revision: one UPDATE decides between racing calls.
      // TypeORM's UPDATE names the table without an alias: the subquery reaches the row as `publications`.
      const moved = await db
        .createQueryBuilder()
        .update(PublicationEntity)
        .set({ revision: () => 'revision + 1', updatedAt: () => 'now()' })
        .where(
          `id = :id AND revision = :revision AND status = 'scheduled'
            AND EXISTS (SELECT 1 FROM renditions r WHERE r.id = :renditionId AND r.publication_id = publications.id
              AND r.status = 'scheduled' AND r.delivery_current_attempt_number = 0)`,
          { id, revision: input.expected_revision, renditionId },
        )
        .execute();
      if (moved.affected !== 1) {
        const current = await this.publications.findVisible(principal, id, 'editor');
        if (current.revision !== input.expected_revision) throw await this.publications.whyNotUpdated(db, id, input.expected_revision);
        throw this.notOverridable(current.status === 'scheduled' ? 'scheduled (its rendition already delivering)' : current.status);
      }
      await this.mediaFacts.record(db, resolved);
      if (input.settings !== undefined)
        await db.query(`UPDATE renditions SET settings = $2::jsonb, updated_at = now() WHERE id = $1`, [
          renditionId,
          JSON.stringify(input.settings),
        ]);
      const publication = await db.getRepository(PublicationEntity).findOneByOrFail({ id });
      const overrides = await readOverrides(db, id);
      const mine = overrides.get(rendition.social_account_id) ?? new Map<string, SegmentOverride>();
      for (const entry of input.segments ?? []) {
        mine.set(entry.publication_segment_id.toLowerCase(), {
          title: entry.title_override ?? '',
          body: entry.body_override ?? '',
          description: entry.description_override ?? '',
          url: entry.url_override ?? '',
          media: entry.media === undefined ? null : toAttachedList(entry.media),
        });
      }
      overrides.set(rendition.social_account_id, mine);
      const accounts = await renditionAccounts(db, id);
      const segments = await db.getRepository(PublicationSegmentEntity).find({ where: { publicationId: id }, order: { position: 'ASC' } });
      const { parts, problems: found } = await renderChecked(db, publication, segments, accounts, overrides);
      const refusal = networkRulesProblem(found);
      if (refusal) throw refusal;
      await replaceRenditions(
        db,
        publication,
        accounts,
        parts,
        publication.scheduledAt ?? new Date(),
        publication.randomDelayMinutes,
        overrides,
      );
    });
    return this.publications.read(id);
  }

  /** Each entry names a distinct segment of the publication (422 at `body.segments[i].publication_segment_id`). */
  private checkSegments(input: UpdateRenditionRequest, segmentIds: Set<string>): void {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    (input.segments ?? []).forEach((entry, index) => {
      const id = entry.publication_segment_id.toLowerCase();
      const location = `body.segments[${index}].publication_segment_id`;
      if (!segmentIds.has(id))
        errors.push({ location, message: 'is not a segment of this publication', value: entry.publication_segment_id });
      else if (seen.has(id)) errors.push({ location, message: 'is listed twice', value: entry.publication_segment_id });
      seen.add(id);
    });
    if (errors.length > 0) throw problems.validation(errors, 'Some overrides do not name segments of this publication.');
  }

  private notOverridable(status: string) {
    return problems.conflict(
      'invalid_transition',
      `A rendition of a ${status} publication cannot be changed; only those of scheduled publications, before their delivery starts, can.`,
      { current_status: status.split(' ')[0] },
    );
  }
}
