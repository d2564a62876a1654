export * from './patterns.js';
export * from './preferences.dto.js';
export * from './inbox.dto.js';
