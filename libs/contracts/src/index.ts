export * from './common/index.js';
export * from './accounts/index.js';
export * from './notifications/index.js';
export * from './tenancy/index.js';
export * from './admin/index.js';
export * from './publishing/index.js';
export * from './media/index.js';
export * from './services.js';
