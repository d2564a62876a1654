import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import type { FieldError } from '@social/contracts';
import { problems } from '../problems/problem.js';

/** Members clients may send on any body and that we ignore (contract §1). */
const IGNORED_MEMBERS = ['$schema'];

function flatten(errors: ValidationError[], prefix: string, out: FieldError[]): FieldError[] {
  for (const error of errors) {
    const location = /^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`;
    if (error.value === undefined && error.constraints && !error.constraints.whitelistValidation) {
      // One line for a missing member, not one per rule it would have broken.
      out.push({ location, message: 'is required' });
      continue;
    }
    for (const [rule, message] of Object.entries(error.constraints ?? {})) {
      const text = rule === 'whitelistValidation' ? 'unexpected property' : message.replace(/^\S+ /, '');
      const field: FieldError = { location, message: text };
      if (rule !== 'whitelistValidation' && isPrintable(error.value)) field.value = error.value;
      out.push(field);
    }
    if (error.children?.length) flatten(error.children, location, out);
  }
  return out;
}

function isPrintable(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? String(value).length <= 200 : false;
}

/**
 * Checks a plain object against a contract class (class-validator rules, unknown
 * members refused) and returns the typed instance, or throws a 422 problem whose
 * `errors` name every invalid location (`body.accounts[0].id`, `query.page`…).
 */
export function validateInput<T extends object>(type: new () => T, input: unknown, location: string): T {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw problems.invalid(location, 'must be a JSON object');
  }
  const plain = { ...(input as Record<string, unknown>) };
  for (const member of IGNORED_MEMBERS) delete plain[member];
  const instance = plainToInstance(type, plain, { enableImplicitConversion: false });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const fieldErrors = flatten(errors, location, []);
    throw problems.validation(fieldErrors, fieldErrors.map((e) => `${e.location} ${e.message}`).join('; ') + '.');
  }
  return instance;
}
