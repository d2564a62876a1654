/** NATS subjects served by the insights service (`<service>.<feature>.<verb>`). */
export const INSIGHTS_SERVICE = 'insights';

export const InsightsPatterns = {
  /** E23. */
  listGrowth: 'insights.growth.list',
  refreshGrowth: 'insights.growth.refresh',
  follow: 'insights.growth.follow',
  dismiss: 'insights.growth.dismiss',
  /** E24. */
  overview: 'insights.analytics.overview',
  refreshAnalytics: 'insights.analytics.refresh',
} as const;
