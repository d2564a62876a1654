import { CreateInsights1765100000000 } from './1765100000000-create-insights.js';
import { AddGrowthMutuals1765200000000 } from './1765200000000-add-growth-mutuals.js';
import { IndexSyncJobLeases1765300000000 } from './1765300000000-index-sync-job-leases.js';

/** Every migration of the insights schema, oldest first. */
export const insightsMigrations = [CreateInsights1765100000000, AddGrowthMutuals1765200000000, IndexSyncJobLeases1765300000000];
