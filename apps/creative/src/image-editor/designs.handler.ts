import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateDesignRequest,
  CreateRevisionRequest,
  ExportDesignRequest,
  ImageEditorDesign,
  ImageEditorDesignList,
  ImageEditorPatterns,
  ImageEditorRevision,
  ImageEditorRevisionList,
  ListDesignsQuery,
  ListRevisionsQuery,
  MediaItem,
  RevisionSummary,
  RpcRequest,
  UpdateDesignRequest,
} from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { DesignsService } from './designs.service.js';

type ById = RpcRequest<unknown, Record<string, unknown>, { id: string; revision_id?: string }>;
const NO_SUCH_DESIGN = 'No such design.';
const NO_SUCH_REVISION = 'No such revision of this design.';

@Controller()
export class DesignsHandler {
  constructor(private readonly designs: DesignsService) {}

  @MessagePattern(ImageEditorPatterns.createDesign)
  create(@Payload() req: RpcRequest): Promise<ImageEditorDesign> {
    return this.designs.create(requirePrincipal(req), validateInput(CreateDesignRequest, req.body, 'body'));
  }

  @MessagePattern(ImageEditorPatterns.listDesigns)
  list(@Payload() req: RpcRequest): Promise<ImageEditorDesignList> {
    return this.designs.list(requirePrincipal(req), validateInput(ListDesignsQuery, req.query, 'query'));
  }

  @MessagePattern(ImageEditorPatterns.getDesign)
  get(@Payload() req: ById): Promise<ImageEditorDesign> {
    return this.designs.get(requirePrincipal(req), pathId(req.params.id, NO_SUCH_DESIGN));
  }

  @MessagePattern(ImageEditorPatterns.updateDesign)
  update(@Payload() req: ById): Promise<ImageEditorDesign> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_DESIGN);
    return this.designs.update(principal, id, validateInput(UpdateDesignRequest, req.body, 'body'));
  }

  @MessagePattern(ImageEditorPatterns.deleteDesign)
  async delete(@Payload() req: ById): Promise<null> {
    await this.designs.delete(requirePrincipal(req), pathId(req.params.id, NO_SUCH_DESIGN));
    return null;
  }

  @MessagePattern(ImageEditorPatterns.exportDesign)
  export(@Payload() req: ById): Promise<MediaItem> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_DESIGN);
    return this.designs.export(principal, id, validateInput(ExportDesignRequest, req.body, 'body'));
  }

  @MessagePattern(ImageEditorPatterns.createRevision)
  checkpoint(@Payload() req: ById): Promise<RevisionSummary> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_DESIGN);
    return this.designs.checkpoint(principal, id, validateInput(CreateRevisionRequest, req.body, 'body'));
  }

  @MessagePattern(ImageEditorPatterns.listRevisions)
  listRevisions(@Payload() req: ById): Promise<ImageEditorRevisionList> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_DESIGN);
    return this.designs.listRevisions(principal, id, validateInput(ListRevisionsQuery, req.query, 'query'));
  }

  @MessagePattern(ImageEditorPatterns.getRevision)
  getRevision(@Payload() req: ById): Promise<ImageEditorRevision> {
    const principal = requirePrincipal(req);
    return this.designs.getRevision(principal, pathId(req.params.id, NO_SUCH_DESIGN), pathId(req.params.revision_id, NO_SUCH_REVISION));
  }

  @MessagePattern(ImageEditorPatterns.restoreRevision)
  restore(@Payload() req: ById): Promise<ImageEditorDesign> {
    const principal = requirePrincipal(req);
    return this.designs.restore(principal, pathId(req.params.id, NO_SUCH_DESIGN), pathId(req.params.revision_id, NO_SUCH_REVISION));
  }
}
