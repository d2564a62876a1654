import { nothing, operation } from '../common/operation.js';
import { CreateSocialSetRequest, ListSocialSetsQuery, ReplaceSocialSetRequest, SocialSet, SocialSetList } from './social-sets.dto.js';

/** Social sets: named, ordered groups of a workspace's accounts (publishing service). */
export const SocialSetOperations = {
  create: operation({ subject: 'publishing.social-sets.create', body: CreateSocialSetRequest, answer: SocialSet }),
  list: operation({ subject: 'publishing.social-sets.list', query: ListSocialSetsQuery, answer: SocialSetList }),
  get: operation({ subject: 'publishing.social-sets.get', params: { id: null }, answer: SocialSet }),
  replace: operation({ subject: 'publishing.social-sets.replace', params: { id: null }, body: ReplaceSocialSetRequest, answer: SocialSet }),
  delete: operation({ subject: 'publishing.social-sets.delete', params: { id: null }, answer: nothing }),
};
