export * from './patterns.js';
export * from './webhooks.dto.js';
export * from './webhooks.operations.js';
