export * from './access.js';
export * from './patterns.js';
export * from './organizations.dto.js';
export * from './workspaces.dto.js';
