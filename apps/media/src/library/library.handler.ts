import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ListMediaQuery,
  MediaContentTarget,
  MediaItem,
  MediaList,
  MediaPatterns,
  RpcRequest,
  SetMediaTagsRequest,
} from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { LibraryService } from './library.service.js';

type ById = RpcRequest<unknown, unknown, { id: string }>;
const NO_SUCH_ITEM = 'No such media item.';

@Controller()
export class LibraryHandler {
  constructor(private readonly library: LibraryService) {}

  @MessagePattern(MediaPatterns.listMedia)
  list(@Payload() req: RpcRequest): Promise<MediaList> {
    return this.library.list(requirePrincipal(req), validateInput(ListMediaQuery, req.query, 'query'));
  }

  @MessagePattern(MediaPatterns.getMedia)
  get(@Payload() req: ById): Promise<MediaItem> {
    return this.library.get(requirePrincipal(req), pathId(req.params.id, NO_SUCH_ITEM));
  }

  @MessagePattern(MediaPatterns.mediaContent)
  content(@Payload() req: ById): Promise<MediaContentTarget> {
    return this.library.contentTarget(requirePrincipal(req), pathId(req.params.id, NO_SUCH_ITEM));
  }

  @MessagePattern(MediaPatterns.deleteMedia)
  async delete(@Payload() req: ById): Promise<null> {
    await this.library.delete(requirePrincipal(req), pathId(req.params.id, NO_SUCH_ITEM));
    return null;
  }

  @MessagePattern(MediaPatterns.setMediaTags)
  setTags(@Payload() req: ById): Promise<MediaItem> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_ITEM);
    return this.library.setTags(principal, id, validateInput(SetMediaTagsRequest, req.body, 'body'));
  }
}
