import { Injectable } from '@nestjs/common';
import type { ReadResourceRequest } from '@social/contracts';
import { DataSource } from 'typeorm';
import { PublicationEntity } from '../publications/publication.entity.js';
import { PublicationsService } from '../publications/publications.service.js';
import { SocialAccountsService } from '../social-accounts/social-accounts.service.js';

/**
 * Publications (with their renditions), one rendition (with its `publication_id`) and social accounts, exactly as
 * the API shows them; null when gone or of another workspace. No principal: the asking service (webhooks) has
 * checked who may see the result (a workspace admin's subscription).
 */
@Injectable()
export class ResourceReads {
  constructor(
    private readonly dataSource: DataSource,
    private readonly publications: PublicationsService,
    private readonly accounts: SocialAccountsService,
  ) {}

  async read(input: ReadResourceRequest): Promise<object | null> {
    const workspaceId = input.workspace_id.toLowerCase();
    const id = input.id.toLowerCase();
    if (input.kind === 'social_account') return await this.accounts.read(id, workspaceId);
    const publicationId =
      input.kind === 'publication'
        ? id
        : ((await this.dataSource.query<Array<{ publication_id: string }>>(`SELECT publication_id FROM renditions WHERE id = $1`, [id]))[0]
            ?.publication_id ?? null);
    if (!publicationId) return null;
    const owned = await this.dataSource.getRepository(PublicationEntity).existsBy({ id: publicationId, workspaceId });
    if (!owned) return null;
    const publication = await this.publications.read(publicationId);
    if (input.kind === 'publication') return publication;
    return publication.renditions.find((rendition) => rendition.id === id) ?? null;
  }
}
