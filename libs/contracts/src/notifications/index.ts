export * from './patterns.js';
export * from './preferences.dto.js';
