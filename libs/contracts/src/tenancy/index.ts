export * from './access.js';
export * from './patterns.js';
export * from './organizations.dto.js';
export * from './workspaces.dto.js';
export * from './organizations.operations.js';
export * from './workspaces.operations.js';
export * from './invitations.operations.js';
