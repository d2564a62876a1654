import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so two values that mean the
 * same ({"a":1,"b":2} and {"b":2,"a":1}) serialize, and hash, the same.
 * Members that JSON leaves out (undefined) are left out here too.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // Dates and the like serialize as JSON.stringify would serialize them.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const members = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${members.join(',')}}`;
}

/** SHA-256 (hex) of the canonical JSON: a request's fingerprint. */
export function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
