/** The insights service's name (`insights.<feature>.<verb>`); its HTTP operations are in `*.operations.ts`. */
export const INSIGHTS_SERVICE = 'insights';
