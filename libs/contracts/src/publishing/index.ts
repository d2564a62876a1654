export * from './patterns.js';
export * from './social-accounts.dto.js';
