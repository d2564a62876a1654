import { Controller } from '@nestjs/common';
import {
  DesignOperations,
  type ImageEditorDesign,
  type ImageEditorDesignList,
  type ImageEditorRevision,
  type ImageEditorRevisionList,
  type InputOf,
  type MediaItem,
  type RevisionSummary,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { DesignsService } from './designs.service.js';

@Controller()
export class DesignsHandler {
  constructor(private readonly designs: DesignsService) {}

  @Handles(DesignOperations.create)
  create(@Input() { principal, body }: InputOf<typeof DesignOperations.create>): Promise<ImageEditorDesign> {
    return this.designs.create(principal, body);
  }

  @Handles(DesignOperations.list)
  list(@Input() { principal, query }: InputOf<typeof DesignOperations.list>): Promise<ImageEditorDesignList> {
    return this.designs.list(principal, query);
  }

  @Handles(DesignOperations.get)
  get(@Input() { principal, params }: InputOf<typeof DesignOperations.get>): Promise<ImageEditorDesign> {
    return this.designs.get(principal, params.id);
  }

  @Handles(DesignOperations.update)
  update(@Input() { principal, params, body }: InputOf<typeof DesignOperations.update>): Promise<ImageEditorDesign> {
    return this.designs.update(principal, params.id, body);
  }

  @Handles(DesignOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof DesignOperations.delete>): Promise<null> {
    await this.designs.delete(principal, params.id);
    return null;
  }

  @Handles(DesignOperations.export)
  export(@Input() { principal, params, body }: InputOf<typeof DesignOperations.export>): Promise<MediaItem> {
    return this.designs.export(principal, params.id, body);
  }

  @Handles(DesignOperations.createRevision)
  checkpoint(@Input() { principal, params, body }: InputOf<typeof DesignOperations.createRevision>): Promise<RevisionSummary> {
    return this.designs.checkpoint(principal, params.id, body);
  }

  @Handles(DesignOperations.listRevisions)
  listRevisions(@Input() { principal, params, query }: InputOf<typeof DesignOperations.listRevisions>): Promise<ImageEditorRevisionList> {
    return this.designs.listRevisions(principal, params.id, query);
  }

  @Handles(DesignOperations.getRevision)
  getRevision(@Input() { principal, params }: InputOf<typeof DesignOperations.getRevision>): Promise<ImageEditorRevision> {
    return this.designs.getRevision(principal, params.id, params.revision_id);
  }

  @Handles(DesignOperations.restoreRevision)
  restore(@Input() { principal, params }: InputOf<typeof DesignOperations.restoreRevision>): Promise<ImageEditorDesign> {
    return this.designs.restore(principal, params.id, params.revision_id);
  }
}
