export * from './patterns.js';
export * from './growth.dto.js';
export * from './analytics.dto.js';
