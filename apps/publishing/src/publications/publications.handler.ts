import { Controller } from '@nestjs/common';
import {
  type HttpReply,
  type InputOf,
  type Publication,
  type PublicationList,
  PublicationOperations,
  type PublicationPreview,
  publicationListWithBase,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { PublicationPreviews } from './publication-previews.service.js';
import { PublicationsService } from './publications.service.js';
import { RenditionOverrides } from './rendition-overrides.service.js';

@Controller()
export class PublicationsHandler {
  constructor(
    private readonly publications: PublicationsService,
    private readonly renditions: RenditionOverrides,
    private readonly previews: PublicationPreviews,
  ) {}

  /** Answers an HttpReply: 201 when created, the first answer again (marked replayed) for a repeated Idempotency-Key. */
  @Handles(PublicationOperations.create)
  create(@Input() { principal, body, idempotencyKey }: InputOf<typeof PublicationOperations.create>): Promise<HttpReply<Publication>> {
    return this.publications.create(principal, body, idempotencyKey);
  }

  /** The gateway passes this page on unparsed (Forwarder.passOn): its media URLs are made absolute here. */
  @Handles(PublicationOperations.list)
  async list(@Input() { principal, query, baseUrl }: InputOf<typeof PublicationOperations.list>): Promise<PublicationList> {
    const list = await this.publications.list(principal, query);
    return baseUrl === null ? list : publicationListWithBase(baseUrl, list);
  }

  @Handles(PublicationOperations.get)
  get(@Input() { principal, params }: InputOf<typeof PublicationOperations.get>): Promise<Publication> {
    return this.publications.get(principal, params.id);
  }

  @Handles(PublicationOperations.update)
  update(@Input() { principal, params, body }: InputOf<typeof PublicationOperations.update>): Promise<Publication> {
    return this.publications.update(principal, params.id, body);
  }

  @Handles(PublicationOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof PublicationOperations.delete>): Promise<null> {
    await this.publications.delete(principal, params.id);
    return null;
  }

  @Handles(PublicationOperations.updateRendition)
  updateRendition(@Input() { principal, params, body }: InputOf<typeof PublicationOperations.updateRendition>): Promise<Publication> {
    return this.renditions.update(principal, params.id, params.rendition_id, body);
  }

  @Handles(PublicationOperations.preview)
  preview(@Input() { principal, params, body }: InputOf<typeof PublicationOperations.preview>): Promise<PublicationPreview> {
    return this.previews.preview(principal, params.id, body);
  }
}
