/** The days a calendar view shows: a week from Monday, or the six weeks around a month. */
export type CalendarView = 'week' | 'month';

const DAY_MS = 86_400_000;

export function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days, date.getHours(), date.getMinutes());
}

/** Monday of `date`'s week (weeks start on Monday). */
export function startOfWeek(date: Date): Date {
  const day = startOfDay(date);
  return addDays(day, -((day.getDay() + 6) % 7));
}

/** The first and the day after the last shown day: a month view always shows whole weeks. */
export function visibleRange(view: CalendarView, anchor: Date): { from: Date; to: Date; days: Date[] } {
  const from = view === 'week' ? startOfWeek(anchor) : startOfWeek(new Date(anchor.getFullYear(), anchor.getMonth(), 1));
  const count =
    view === 'week' ? 7 : Math.ceil((new Date(anchor.getFullYear(), anchor.getMonth() + 1, 1).getTime() - from.getTime()) / DAY_MS / 7) * 7;
  const days = Array.from({ length: count }, (_, i) => addDays(from, i));
  return { from, to: addDays(from, count), days };
}

/** The same view one step earlier (-1) or later (1). */
export function step(view: CalendarView, anchor: Date, direction: 1 | -1): Date {
  return view === 'week' ? addDays(anchor, 7 * direction) : new Date(anchor.getFullYear(), anchor.getMonth() + direction, 1);
}

export const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;

/** `time` moved to `day`, keeping its hour and minute. */
export function onDay(time: Date, day: Date): Date {
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), time.getHours(), time.getMinutes(), time.getSeconds());
}

export function rangeTitle(view: CalendarView, anchor: Date, from: Date): string {
  if (view === 'month') return anchor.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
  const last = addDays(from, 6);
  return `${from.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} – ${last.toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  })}`;
}
