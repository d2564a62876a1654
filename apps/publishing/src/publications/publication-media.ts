import type { FieldError, PublicationSegmentInput, UpdatePublicationRequest } from '@social/contracts';
import { problems } from '@social/platform';
import type { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { attachedOf, mediaIdsOf, toAttachedList, toMediaView } from '../media/attached-media.js';
import { loadMediaFacts, type MediaReference } from '../media/media-facts.store.js';
import type { PublicationEntity, PublicationSegmentEntity } from './publication.entity.js';
import type { LoadedPublication } from './publication.mapper.js';

/**
 * Every media id a PATCH names, with its location (docs/decisions.md: 422 at `body.media[i].media_id`,
 * `body.segments[j].media[i].media_id`).
 */
export function mediaReferencesOf(input: Pick<UpdatePublicationRequest, 'media' | 'segments'>): MediaReference[] {
  const references: MediaReference[] = [];
  (input.media ?? []).forEach((media, index) => references.push({ mediaId: media.media_id, location: `body.media[${index}].media_id` }));
  (input.segments ?? []).forEach((segment, segmentIndex) =>
    (segment.media ?? []).forEach((media, index) =>
      references.push({ mediaId: media.media_id, location: `body.segments[${segmentIndex}].media[${index}].media_id` }),
    ),
  );
  return references;
}

/** Segment entries naming an `id` must name distinct segments the publication has (422 at `body.segments[j].id`). */
export function checkKeptSegments(inputs: readonly PublicationSegmentInput[], existing: ReadonlySet<string>): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  inputs.forEach((segment, index) => {
    if (segment.id === undefined) return;
    const id = segment.id.toLowerCase();
    if (!existing.has(id))
      errors.push({ location: `body.segments[${index}].id`, message: 'is not a segment of this publication', value: segment.id });
    else if (seen.has(id)) errors.push({ location: `body.segments[${index}].id`, message: 'is listed twice', value: segment.id });
    seen.add(id);
  });
  if (errors.length > 0) throw problems.validation(errors, 'Some segments are not segments of this publication.');
}

/** Room above any real position while kept segments move (positions are unique per publication). */
const POSITION_SHIFT = 100_000;

/**
 * Replaces the segments by the list sent, in its order: an entry with an `id` keeps that segment
 * (its rendition overrides stay bound to it), one without is new, segments left out go (and the
 * overrides bound to them with them).
 */
export async function replaceSegments(db: EntityManager, publicationId: string, inputs: readonly PublicationSegmentInput[]): Promise<void> {
  const kept = inputs.filter((segment) => segment.id !== undefined).map((segment) => segment.id!.toLowerCase());
  await db.query(`DELETE FROM publication_segments WHERE publication_id = $1 AND NOT (id = ANY($2::uuid[]))`, [publicationId, kept]);
  if (kept.length > 0)
    await db.query(`UPDATE publication_segments SET position = position + $2 WHERE publication_id = $1`, [publicationId, POSITION_SHIFT]);
  const rows: PublicationSegmentEntity[] = inputs.map((segment, position) => ({
    id: segment.id?.toLowerCase() ?? uuidv7(),
    publicationId,
    position,
    title: segment.title ?? '',
    body: segment.body ?? '',
    description: segment.description ?? '',
    url: segment.url ?? '',
    media: toAttachedList(segment.media ?? []),
    settings: segment.settings ?? {},
  }));
  for (const row of rows.filter((segment) => kept.includes(segment.id))) {
    await db.query(
      `UPDATE publication_segments SET position = $2, title = $3, body = $4, description = $5, url = $6, media = $7::jsonb,
         settings = $8::jsonb WHERE id = $1`,
      [row.id, row.position, row.title, row.body, row.description, row.url, JSON.stringify(row.media), JSON.stringify(row.settings)],
    );
  }
  const fresh = rows.filter((segment) => !kept.includes(segment.id));
  if (fresh.length > 0) {
    await db.query(
      `INSERT INTO publication_segments (id, publication_id, position, title, body, description, url, media, settings)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::jsonb[])`,
      [
        fresh.map((s) => s.id),
        fresh.map((s) => s.publicationId),
        fresh.map((s) => s.position),
        fresh.map((s) => s.title),
        fresh.map((s) => s.body),
        fresh.map((s) => s.description),
        fresh.map((s) => s.url),
        fresh.map((s) => JSON.stringify(s.media)),
        fresh.map((s) => JSON.stringify(s.settings)),
      ],
    );
  }
}

/**
 * The loaded publications with every stored media reference turned into PublicationMedia
 * (docs/decisions.md) from publishing's media facts: one query for the whole page.
 */
export async function withMediaViews(db: EntityManager, loaded: LoadedPublication[]): Promise<LoadedPublication[]> {
  const lists: unknown[] = [];
  for (const entry of loaded) {
    lists.push(entry.publication.media, ...entry.segments.map((segment) => segment.media));
    for (const rendition of entry.renditions) lists.push(rendition.rendition.media, ...rendition.segments.map((segment) => segment.media));
  }
  const ids = mediaIdsOf(lists);
  if (ids.length === 0) return loaded;
  const facts = await loadMediaFacts(db, ids);
  const view = (stored: unknown) => attachedOf(stored).map((attached) => toMediaView(attached, facts.get(attached.media_id)));
  return loaded.map((entry) => ({
    publication: { ...entry.publication, media: view(entry.publication.media) } as PublicationEntity,
    segments: entry.segments.map((segment) => ({ ...segment, media: view(segment.media) })),
    renditions: entry.renditions.map(({ rendition, segments }) => ({
      rendition: { ...rendition, media: view(rendition.media) },
      segments: segments.map((segment) => ({ ...segment, media: view(segment.media) })),
    })),
  }));
}
