export * from './patterns.js';
export * from './media.dto.js';
