import { nothing, operation } from '../common/operation.js';
import { GrowthListResult, GrowthQuery, RefreshGrowthRequest, SyncJobAccepted } from './growth.dto.js';

const NO_SUCH_ITEM = 'No such growth recommendation.';

/** Follow recommendations for a connected account (insights service). */
export const GrowthOperations = {
  list: operation({ subject: 'insights.growth.list', query: GrowthQuery, answer: GrowthListResult }),
  refresh: operation({ subject: 'insights.growth.refresh', body: RefreshGrowthRequest, answer: SyncJobAccepted }),
  follow: operation({ subject: 'insights.growth.follow', params: { id: NO_SUCH_ITEM }, answer: SyncJobAccepted }),
  dismiss: operation({ subject: 'insights.growth.dismiss', params: { id: NO_SUCH_ITEM }, answer: nothing }),
};
