import { ConfigOf, serviceSettings } from '@social/platform';

export const insightsSettings = { ...serviceSettings };
export type InsightsConfig = ConfigOf<typeof insightsSettings>;
