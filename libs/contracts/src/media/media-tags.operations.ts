import { nothing, operation } from '../common/operation.js';
import { CreateMediaTagRequest, ListMediaTagsQuery, MediaTag, MediaTagList, UpdateMediaTagRequest } from './media.dto.js';

const NO_SUCH_TAG = 'No such media tag.';

/** A workspace's media tags (media service). */
export const MediaTagOperations = {
  create: operation({ subject: 'media.tags.create', body: CreateMediaTagRequest, answer: MediaTag }),
  list: operation({ subject: 'media.tags.list', query: ListMediaTagsQuery, answer: MediaTagList }),
  update: operation({ subject: 'media.tags.update', params: { id: NO_SUCH_TAG }, body: UpdateMediaTagRequest, answer: MediaTag }),
  delete: operation({ subject: 'media.tags.delete', params: { id: NO_SUCH_TAG }, answer: nothing }),
};
