/** NATS subjects served by the insights service (`<service>.<feature>.<verb>`). */
export const INSIGHTS_SERVICE = 'insights';
