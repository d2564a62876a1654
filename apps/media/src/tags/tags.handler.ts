import { Controller } from '@nestjs/common';
import { type InputOf, type MediaTag, type MediaTagList, MediaTagOperations } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { TagsService } from './tags.service.js';

@Controller()
export class TagsHandler {
  constructor(private readonly tags: TagsService) {}

  @Handles(MediaTagOperations.create)
  create(@Input() { principal, body }: InputOf<typeof MediaTagOperations.create>): Promise<MediaTag> {
    return this.tags.create(principal, body);
  }

  @Handles(MediaTagOperations.list)
  list(@Input() { principal, query }: InputOf<typeof MediaTagOperations.list>): Promise<MediaTagList> {
    return this.tags.list(principal, query);
  }

  @Handles(MediaTagOperations.update)
  rename(@Input() { principal, params, body }: InputOf<typeof MediaTagOperations.update>): Promise<MediaTag> {
    return this.tags.rename(principal, params.id, body);
  }

  @Handles(MediaTagOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof MediaTagOperations.delete>): Promise<null> {
    await this.tags.delete(principal, params.id);
    return null;
  }
}
