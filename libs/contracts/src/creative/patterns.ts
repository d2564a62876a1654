/** NATS subjects served by the creative service (`<service>.<feature>.<verb>`). */
export const CREATIVE_SERVICE = 'creative';
