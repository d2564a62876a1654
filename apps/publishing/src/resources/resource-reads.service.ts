import { Injectable } from '@nestjs/common';
import type { ReadResourceRequest } from '@social/contracts';
import { DataSource } from 'typeorm';
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
    // The publication the resource belongs to, if it is the workspace's: one query.
    const [owner] = await this.dataSource.query<Array<{ publication_id: string }>>(
      input.kind === 'publication'
        ? `SELECT id AS publication_id FROM publications WHERE id = $1 AND workspace_id = $2`
        : `SELECT r.publication_id FROM renditions r JOIN publications p ON p.id = r.publication_id
            WHERE r.id = $1 AND p.workspace_id = $2`,
      [id, workspaceId],
    );
    if (!owner) return null;
    const publication = await this.publications.read(owner.publication_id);
    if (input.kind === 'publication') return publication;
    return publication.renditions.find((rendition) => rendition.id === id) ?? null;
  }
}
