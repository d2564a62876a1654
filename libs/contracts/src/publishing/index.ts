export * from './patterns.js';
export * from './social-accounts.dto.js';
export * from './social-sets.dto.js';
export * from './voice-profiles.dto.js';
export * from './publication-builds.dto.js';
export * from './publications.dto.js';
export * from './account-events.js';
export * from './delivery.dto.js';
