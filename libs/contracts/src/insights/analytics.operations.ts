import { operation } from '../common/operation.js';
import { AnalyticsOverview, AnalyticsQuery, RefreshAnalyticsRequest } from './analytics.dto.js';
import { SyncJobAccepted } from './growth.dto.js';

/** Stored whole-account analytics and their sync (insights service). */
export const AnalyticsOperations = {
  overview: operation({ subject: 'insights.analytics.overview', query: AnalyticsQuery, answer: AnalyticsOverview }),
  refresh: operation({ subject: 'insights.analytics.refresh', body: RefreshAnalyticsRequest, answer: SyncJobAccepted }),
};
