export * from './keys.js';
export * from './processes.js';
export * from './nats.js';
export * from './database.js';
export * from './stack.js';
export * from './smtp-sink.js';
export * from './admin-environment.js';
export * from './fake-ai.js';
