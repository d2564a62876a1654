import { nothing, operation } from '../common/operation.js';
import { ListMediaQuery, MediaContentTarget, MediaItem, MediaList, SetMediaTagsRequest } from './media.dto.js';

const NO_SUCH_ITEM = 'No such media item.';

/** A workspace's media library (media service). */
export const MediaOperations = {
  list: operation({ subject: 'media.library.list', query: ListMediaQuery, answer: MediaList }),
  get: operation({ subject: 'media.library.get', params: { id: NO_SUCH_ITEM }, answer: MediaItem }),
  /** Where a readable item's bytes are: the gateway streams them. */
  content: operation({ subject: 'media.library.content', params: { id: NO_SUCH_ITEM }, answer: MediaContentTarget }),
  delete: operation({ subject: 'media.library.delete', params: { id: NO_SUCH_ITEM }, answer: nothing }),
  setTags: operation({ subject: 'media.library.set-tags', params: { id: NO_SUCH_ITEM }, body: SetMediaTagsRequest, answer: MediaItem }),
};
