import { CreateInsights1765100000000 } from './1765100000000-create-insights.js';

/** Every migration of the insights schema, oldest first. */
export const insightsMigrations = [CreateInsights1765100000000];
