import { Controller } from '@nestjs/common';
import { type InputOf, type MediaContentTarget, type MediaItem, type MediaList, MediaOperations } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { LibraryService } from './library.service.js';

@Controller()
export class LibraryHandler {
  constructor(private readonly library: LibraryService) {}

  @Handles(MediaOperations.list)
  list(@Input() { principal, query }: InputOf<typeof MediaOperations.list>): Promise<MediaList> {
    return this.library.list(principal, query);
  }

  @Handles(MediaOperations.get)
  get(@Input() { principal, params }: InputOf<typeof MediaOperations.get>): Promise<MediaItem> {
    return this.library.get(principal, params.id);
  }

  @Handles(MediaOperations.content)
  content(@Input() { principal, params }: InputOf<typeof MediaOperations.content>): Promise<MediaContentTarget> {
    return this.library.contentTarget(principal, params.id);
  }

  @Handles(MediaOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof MediaOperations.delete>): Promise<null> {
    await this.library.delete(principal, params.id);
    return null;
  }

  @Handles(MediaOperations.setTags)
  setTags(@Input() { principal, params, body }: InputOf<typeof MediaOperations.setTags>): Promise<MediaItem> {
    return this.library.setTags(principal, params.id, body);
  }
}
