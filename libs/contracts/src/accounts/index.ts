export * from './patterns.js';
export * from './auth.dto.js';
export * from './profile.dto.js';
export * from './reauth.dto.js';
export * from './passkeys.dto.js';
export * from './email-change.dto.js';
export * from './api-tokens.dto.js';
export * from './security-events.js';
