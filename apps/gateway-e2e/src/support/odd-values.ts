/**
 * Values a client may send in place of any body member: wrong types, extremes, empty and huge strings, and characters
 * PostgreSQL cannot store. Whatever the member, the answer must be a 2xx or a 4xx problem, never a 500 or a hang.
 */
export const ODD_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  '',
  ' ',
  'x'.repeat(5_000),
  [],
  [1],
  {},
  { a: 1 },
  '😀',
  'a\u0000b',
];
