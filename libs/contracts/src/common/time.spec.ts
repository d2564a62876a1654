import { isRfc3339DateTime } from './time.js';

describe('isRfc3339DateTime', () => {
  it.each(['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.123Z', '2024-02-29T23:59:59+01:00', '2026-12-31T00:00:00.123456789-05:30'])(
    'accepts %s',
    (value) => expect(isRfc3339DateTime(value)).toBe(true),
  );

  it.each([
    '2026-02-31T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T10:60:00Z',
    '2026-11-22T10:00:60Z',
    '2026-11-22T10:00:00+24:00',
    '2026-11-22 10:00:00Z',
    '2026-11-22T10:00:00',
    42,
    null,
  ])('refuses %s', (value) => expect(isRfc3339DateTime(value)).toBe(false));
});
