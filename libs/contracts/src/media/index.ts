export * from './patterns.js';
export * from './media.dto.js';
export * from './analysis.dto.js';
