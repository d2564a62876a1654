import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateMediaTagRequest,
  ListMediaTagsQuery,
  MediaPatterns,
  MediaTag,
  MediaTagList,
  RpcRequest,
  UpdateMediaTagRequest,
} from '@social/contracts';
import { pathId, requirePrincipal, validateInput } from '@social/platform';
import { TagsService } from './tags.service.js';

type ById = RpcRequest<unknown, unknown, { id: string }>;
const NO_SUCH_TAG = 'No such media tag.';

@Controller()
export class TagsHandler {
  constructor(private readonly tags: TagsService) {}

  @MessagePattern(MediaPatterns.createTag)
  create(@Payload() req: RpcRequest): Promise<MediaTag> {
    const principal = requirePrincipal(req);
    return this.tags.create(principal, validateInput(CreateMediaTagRequest, req.body, 'body'));
  }

  @MessagePattern(MediaPatterns.listTags)
  list(@Payload() req: RpcRequest): Promise<MediaTagList> {
    return this.tags.list(requirePrincipal(req), validateInput(ListMediaTagsQuery, req.query, 'query'));
  }

  @MessagePattern(MediaPatterns.updateTag)
  rename(@Payload() req: ById): Promise<MediaTag> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, NO_SUCH_TAG);
    return this.tags.rename(principal, id, validateInput(UpdateMediaTagRequest, req.body, 'body'));
  }

  @MessagePattern(MediaPatterns.deleteTag)
  async delete(@Payload() req: ById): Promise<null> {
    await this.tags.delete(requirePrincipal(req), pathId(req.params.id, NO_SUCH_TAG));
    return null;
  }
}
