import { randomUUID } from 'node:crypto';
import { usageError } from './cli-error.js';

/** The platform keeps keys of 1–200 characters; a step's suffix (`:upload:12`) must still fit. */
const MAX_GIVEN_LENGTH = 160;

/**
 * The Idempotency-Keys of one command. With `--idempotency-key K`, running the command again with K sends the very
 * same keys, so the platform answers the first result instead of creating anything twice; without it, each
 * invocation draws a key of its own, which every retry of its requests reuses.
 */
export class IdempotencyKeys {
  readonly base: string;

  constructor(given?: string) {
    if (given !== undefined && (given.length === 0 || given.length > MAX_GIVEN_LENGTH)) {
      throw usageError(`--idempotency-key must be 1–${MAX_GIVEN_LENGTH} characters`);
    }
    this.base = given ?? randomUUID();
  }

  /** The key of the command's main write (the key given, as it is). */
  main(): string {
    return this.base;
  }

  /** The key of one step of a command that writes several times (`upload:0`, `upload:1`, …). */
  step(name: string): string {
    return `${this.base}:${name}`;
  }
}
