import { describe, expect, it } from '@jest/globals';
import { digestInstant, localDate, nextDate, nextDigestAfter } from './digest-schedule.js';

describe('digest schedule', () => {
  it('reads 09:00 in New York as 14:00Z in winter and 13:00Z from the DST day on', () => {
    expect(digestInstant('2026-03-07', '09:00', 'America/New_York').toISOString()).toBe('2026-03-07T14:00:00.000Z');
    // 2026-03-08: clocks go from 02:00 EST to 03:00 EDT.
    expect(digestInstant('2026-03-08', '09:00', 'America/New_York').toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(digestInstant('2026-03-08', '01:30', 'America/New_York').toISOString()).toBe('2026-03-08T06:30:00.000Z');
  });

  it('takes a skipped local time as the same wall time after the jump', () => {
    // 02:30 does not exist on 2026-03-08 in New York: 03:30 EDT.
    expect(digestInstant('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('takes the first of a repeated local time when clocks go back (Paris, 2026-10-25)', () => {
    expect(digestInstant('2026-10-25', '02:30', 'Europe/Paris').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(digestInstant('2026-10-25', '09:00', 'Europe/Paris').toISOString()).toBe('2026-10-25T08:00:00.000Z');
    expect(digestInstant('2026-10-24', '09:00', 'Europe/Paris').toISOString()).toBe('2026-10-24T07:00:00.000Z');
  });

  it('handles zones ahead of UTC and half-hour offsets', () => {
    expect(digestInstant('2026-11-25', '08:00', 'Asia/Kolkata').toISOString()).toBe('2026-11-25T02:30:00.000Z');
    expect(digestInstant('2026-11-25', '07:00', 'Pacific/Auckland').toISOString()).toBe('2026-11-24T18:00:00.000Z');
  });

  it('gives the local date of an instant', () => {
    expect(localDate(new Date('2026-11-25T02:00:00Z'), 'America/Los_Angeles')).toBe('2026-11-24');
    expect(localDate(new Date('2026-11-25T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-11-26');
    expect(nextDate('2026-12-31')).toBe('2027-01-01');
    expect(nextDate('2028-02-28')).toBe('2028-02-29');
  });

  it('finds the next digest strictly after an instant, across a DST change', () => {
    // Saturday 10:00 EST, after the day's 09:00: Sunday's 09:00, which is already EDT.
    expect(nextDigestAfter(new Date('2026-03-07T15:00:00Z'), '09:00', 'America/New_York')).toEqual({
      date: '2026-03-08',
      dueAt: new Date('2026-03-08T13:00:00Z'),
    });
    // Just before today's: today's.
    expect(nextDigestAfter(new Date('2026-03-07T13:59:59Z'), '09:00', 'America/New_York').dueAt.toISOString()).toBe(
      '2026-03-07T14:00:00.000Z',
    );
    // Exactly at it: tomorrow's.
    expect(nextDigestAfter(new Date('2026-03-07T14:00:00Z'), '09:00', 'America/New_York').date).toBe('2026-03-08');
  });
});
