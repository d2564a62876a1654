export * from './patterns.js';
export * from './social-accounts.dto.js';
export * from './publication-builds.dto.js';
