import { Inject, Injectable } from '@nestjs/common';
import type { AttachedMedia, Principal, PreviewMedia, PreviewPart, PreviewPublicationRequest, PublicationPreview } from '@social/contracts';
import { type MediaStorage, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DeliveryOperations } from '../delivery/delivery-operations.service.js';
import { countText, type RenderedPart } from '../delivery/render.js';
import { readOverrides, renderChecked } from '../delivery/renditions.js';
import { mediaIdsOf, type MediaFacts } from '../media/attached-media.js';
import { fitImage, fittedSize } from '../media/image-fit.js';
import { loadMediaFacts } from '../media/media-facts.store.js';
import { PUBLISHING_MEDIA_STORAGE } from '../media/media-storage.module.js';
import { rulesFor } from '../providers/network-rules.js';
import { PublicationSegmentEntity } from './publication.entity.js';
import { PublicationsService } from './publications.service.js';

/**
 * `POST /publications/{id}/preview` (docs/decisions.md): what each target's network would receive —
 * the parts after splitting, each image as delivery processes it (re-encoded without metadata,
 * resized to the network's limits: the real bytes from storage, so `size` is the delivered size) —
 * and every rule it breaks. Changes nothing and calls no network.
 */
@Injectable()
export class PublicationPreviews {
  constructor(
    private readonly dataSource: DataSource,
    private readonly publications: PublicationsService,
    private readonly delivery: DeliveryOperations,
    @Inject(PUBLISHING_MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async preview(principal: Principal, id: string, input: PreviewPublicationRequest): Promise<PublicationPreview> {
    const publication = await this.publications.findVisible(principal, id, 'viewer');
    const db = this.dataSource.manager;
    const { accounts } = await this.delivery.resolveTargets(db, publication, { ...input, expected_revision: publication.revision });
    const segments = await db.getRepository(PublicationSegmentEntity).find({ where: { publicationId: id }, order: { position: 'ASC' } });
    const overrides = await readOverrides(db, id);
    const { parts, problems } = await renderChecked(db, publication, segments, accounts, overrides);
    const facts = await loadMediaFacts(db, mediaIdsOf([...parts.values()].flatMap((rendered) => rendered.map((part) => part.media))));
    // One processing per image and network, however many accounts of that network.
    const processed = new Map<string, Promise<PreviewMedia>>();
    const renditions = [];
    for (const account of accounts) {
      const previewParts: PreviewPart[] = [];
      for (const part of parts.get(account.id) ?? []) {
        const media: PreviewMedia[] = [];
        for (const attached of part.media) {
          const key = `${account.platform}:${attached.media_id}`;
          if (!processed.has(key)) processed.set(key, this.process(account.platform, attached, facts.get(attached.media_id)));
          media.push({ ...(await processed.get(key)!), alt_text: altTextFor(account.platform, attached) });
        }
        previewParts.push({ text: textOf(account.platform, part), media });
      }
      renditions.push({
        social_account_id: account.id,
        platform: account.platform,
        parts: previewParts,
        problems: problems.get(account.id) ?? [],
      });
    }
    return { renditions };
  }

  /** An image as delivery sends it to the network; a video as it is (videos are never re-encoded). */
  private async process(platform: string, attached: AttachedMedia, facts: MediaFacts | undefined): Promise<PreviewMedia> {
    const base = { media_id: attached.media_id, alt_text: '' };
    if (!facts) return { ...base, mime_type: '', width: 0, height: 0, size: 0 };
    const asIs = { ...base, mime_type: facts.mime_type, width: facts.width, height: facts.height, size: facts.size };
    if (!facts.mime_type.startsWith('image/')) return asIs;
    const rules = rulesFor(platform).image;
    try {
      const stream = facts.object_key ? await this.storage.read(facts.object_key) : null;
      if (stream) {
        const fitted = await fitImage(stream, facts.mime_type, rules);
        return { ...base, mime_type: fitted.mimeType, width: fitted.width, height: fitted.height, size: fitted.size };
      }
    } catch (error) {
      this.logger.warn({ err: error, media_id: attached.media_id }, 'preview could not process an image; showing its fitted size');
    }
    // Bytes unreadable: the sides it would be resized to, its stored size.
    return { ...asIs, ...fittedSize(facts.width, facts.height, rules) };
  }
}

/** Alt text as the network receives it: "" where it takes none (dropped, not refused). */
const altTextFor = (platform: string, attached: AttachedMedia): string =>
  rulesFor(platform).altTextMaxLength > 0 ? attached.alt_text : '';

/** The text of a part as the adapters send it: the title, a blank line, the text (unless a link card shows the title). */
function textOf(platform: string, part: RenderedPart): string {
  const { linkCard } = rulesFor(platform).text;
  const titled = part.title !== '' && !(linkCard && part.link !== '');
  if (!titled) return part.text;
  return part.text === '' || countText(part.text) === 0 ? part.title : `${part.title}\n\n${part.text}`;
}
