export * from './patterns.js';
export * from './growth.dto.js';
export * from './growth.operations.js';
export * from './analytics.dto.js';
export * from './analytics.operations.js';
