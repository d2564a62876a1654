import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import type { FieldError } from '@social/contracts';
import { Problem, problems } from '../problems/problem.js';
import { cacheValidationMetadata } from './metadata-cache.js';

cacheValidationMetadata();

/** Members clients may send on any body and that we ignore (docs/decisions.md). */
const IGNORED_MEMBERS = ['$schema'];

function flatten(errors: ValidationError[], prefix: string, out: FieldError[]): FieldError[] {
  for (const error of errors) {
    const location = /^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`;
    if ((error.value === undefined || error.value === null) && error.constraints && !error.constraints.whitelistValidation) {
      // One line for a missing or null member, not one per rule it would have broken.
      out.push(error.value === undefined ? { location, message: 'is required' } : { location, message: 'must not be null', value: null });
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
 * Characters PostgreSQL cannot store: U+0000 (in text or jsonb) and a lone
 * UTF-16 surrogate (JSON.parse lets `"\ud800"` through; jsonb refuses it).
 * In unicode mode a proper surrogate pair is one code point, so only lone halves match.
 */
const UNSTORABLE_CHARACTER = /\u0000|\p{Cs}/u;

function findUnstorableCharacter(value: unknown, location: string): string | undefined {
  if (typeof value === 'string') return UNSTORABLE_CHARACTER.test(value) ? location : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableCharacter(value[i], `${location}[${i}]`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (UNSTORABLE_CHARACTER.test(key)) return `${location}.${JSON.stringify(key).slice(1, -1)}`;
      const found = findUnstorableCharacter(member, `${location}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
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
  const unstorable = findUnstorableCharacter(plain, location);
  if (unstorable) throw problems.invalid(unstorable, 'must not contain NUL characters or unpaired surrogates');
  const instance = plainToInstance(type, plain, { enableImplicitConversion: false });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const fieldErrors = flatten(errors, location, []);
    throw problems.validation(fieldErrors, fieldErrors.map((e) => `${e.location} ${e.message}`).join('; ') + '.');
  }
  return instance;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

/** A resource id from the path: anything that is not a UUID names nothing, so it is the same 404 as a missing resource. */
export function pathId(value: unknown, notFound?: string): string {
  if (!isUuid(value)) throw problems.notFound(notFound);
  return value.toLowerCase();
}

/** Judges a free document member: undefined when it passes, else where and why not. */
export type DocumentCheck = (document: unknown, location: string) => FieldError | undefined;

/**
 * validateInput for a body carrying a client's own JSON document under `member` (video projects):
 * the other members are checked as usual, the document only by `check`, and it comes back as
 * received (the same object: a 5 MiB tree is neither copied by class-transformer nor walked by
 * class-validator; `type` allows the member without rules). Every location is in one 422.
 */
export function validateInputWithDocument<T extends object>(
  type: new () => T,
  input: unknown,
  location: string,
  check: DocumentCheck,
  member = 'document',
): T {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) throw problems.invalid(location, 'must be a JSON object');
  const { [member]: document, ...members } = input as Record<string, unknown>;
  const documentError = check(document, `${location}.${member}`);
  let instance: T;
  try {
    instance = validateInput(type, members, location);
  } catch (error) {
    const errors = (error as Problem).options?.errors;
    if (!documentError || !(error instanceof Problem) || !errors) throw error;
    const all = [...errors, documentError];
    throw problems.validation(all, all.map((e) => `${e.location} ${e.message}`).join('; ') + '.');
  }
  if (documentError) throw problems.validation([documentError], `${documentError.location} ${documentError.message}.`);
  (instance as Record<string, unknown>)[member] = document;
  return instance;
}
