export * from './patterns.js';
export * from './media.dto.js';
export * from './media.operations.js';
export * from './media-tags.operations.js';
export * from './upload-sessions.operations.js';
export * from './analysis.dto.js';
