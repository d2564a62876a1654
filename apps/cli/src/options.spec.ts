import { describe, expect, it } from '@jest/globals';
import { InvalidArgumentError } from 'commander';
import { parseLimit, parseList, parseSeconds, parseTime } from './options.js';

describe('option parsers', () => {
  it('--at takes RFC 3339 with an offset and sends it as UTC with milliseconds', () => {
    expect(parseTime('2026-05-01T11:00:00+02:00')).toBe('2026-05-01T09:00:00.000Z');
    expect(parseTime('2026-05-01T09:00Z')).toBe('2026-05-01T09:00:00.000Z');
    expect(parseTime('2026-05-01T09:00:00.5Z')).toBe('2026-05-01T09:00:00.500Z');
  });

  it.each(['tomorrow', '2026-05-01', '2026-05-01T09:00:00', '2026-13-01T09:00:00Z', ''])(
    '--at refuses %j (no offset, no date)',
    (value) => {
      expect(() => parseTime(value)).toThrow(InvalidArgumentError);
    },
  );

  it('--accounts splits on commas, drops blanks and repeats, and adds up when repeated', () => {
    expect(parseList(' a, b,,a ')).toEqual(['a', 'b']);
    expect(parseList('c', ['a', 'b'])).toEqual(['a', 'b', 'c']);
    expect(() => parseList(' , ')).toThrow(InvalidArgumentError);
  });

  it('numbers: seconds may be fractional, limits are 1–100', () => {
    expect(parseSeconds('0.5')).toBe(0.5);
    expect(() => parseSeconds('-1')).toThrow(InvalidArgumentError);
    expect(() => parseSeconds('soon')).toThrow(InvalidArgumentError);
    expect(parseLimit('100')).toBe(100);
    expect(() => parseLimit('0')).toThrow(InvalidArgumentError);
    expect(() => parseLimit('2.5')).toThrow(InvalidArgumentError);
  });
});
