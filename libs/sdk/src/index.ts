export { createPlatformClient, isIdempotentReplay, unwrap, type PlatformClient, type PlatformClientOptions } from './client.js';
export { PlatformProblem, type ProblemBody, type ProblemCode, type ProblemFieldError } from './problem.js';
export type { components, operations, paths } from './generated/openapi.js';
import type { components } from './generated/openapi.js';

/** A named schema of the API, e.g. `Schema<'PublicationResponse'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
