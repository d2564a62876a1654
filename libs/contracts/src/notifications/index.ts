export * from './patterns.js';
export * from './preferences.dto.js';
export * from './inbox.dto.js';
export * from './preferences.operations.js';
export * from './mutes.operations.js';
export * from './inbox.operations.js';
