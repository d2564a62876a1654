import { ValidateIf } from 'class-validator';

/**
 * The member may be left out, but when sent it must be valid: unlike
 * class-validator's `@Optional()`, `null` is not "left out" (a member typed
 * string is never null on the wire, docs/decisions.md).
 */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
