import { describe, expect, it } from '@jest/globals';
import { dayKey, onDay, startOfWeek, step, visibleRange } from './calendar-range.js';

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('calendar range', () => {
  it('a week runs Monday to Sunday, whatever day it is opened on', () => {
    expect(startOfWeek(local(2026, 11, 26, 15))).toEqual(local(2026, 11, 23));
    expect(startOfWeek(local(2026, 11, 29, 23, 59))).toEqual(local(2026, 11, 23));
    expect(startOfWeek(local(2026, 11, 30))).toEqual(local(2026, 11, 30));
    const { from, to, days } = visibleRange('week', local(2026, 11, 26));
    expect([from, to, days.length]).toEqual([local(2026, 11, 23), local(2026, 11, 30), 7]);
  });

  it('a month shows the whole weeks around it (never more than the API range of 92 days)', () => {
    // November 2026 starts on a Sunday and ends on a Monday: six weeks.
    const november = visibleRange('month', local(2026, 11, 26));
    expect([november.from, november.to, november.days.length]).toEqual([local(2026, 10, 26), local(2026, 12, 7), 42]);
    // February 2027 starts on a Monday and ends on a Sunday: exactly four weeks.
    const february = visibleRange('month', local(2027, 2, 10));
    expect([february.from, february.to, february.days.length]).toEqual([local(2027, 2, 1), local(2027, 3, 1), 28]);
  });

  it('steps by a week or a month, across years', () => {
    expect(step('week', local(2026, 12, 30), 1)).toEqual(local(2027, 1, 6));
    expect(step('month', local(2026, 12, 30), 1)).toEqual(local(2027, 1, 1));
    expect(step('month', local(2026, 1, 15), -1)).toEqual(local(2025, 12, 1));
  });

  it('a post dropped on another day keeps its time of day', () => {
    expect(onDay(local(2026, 11, 27, 10, 30), local(2026, 12, 2))).toEqual(local(2026, 12, 2, 10, 30));
    expect(dayKey(local(2026, 1, 5, 23))).toBe('2026-1-5');
  });
});
