export * from './rpc.js';
export * from './problem.js';
export * from './schema-name.js';
export * from './time.js';
export * from './optional.js';
export * from './http-reply.js';
export * from './object-list.js';
export * from './query-integer.js';
