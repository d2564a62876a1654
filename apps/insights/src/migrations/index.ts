import { CreateInsights1765100000000 } from './1765100000000-create-insights.js';
import { AddGrowthMutuals1765200000000 } from './1765200000000-add-growth-mutuals.js';

/** Every migration of the insights schema, oldest first. */
export const insightsMigrations = [CreateInsights1765100000000, AddGrowthMutuals1765200000000];
