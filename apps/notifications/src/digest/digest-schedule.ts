/**
 * When a daily digest is due: `digest_time` (HH:MM) on a local date in an IANA
 * zone, as a UTC instant, DST-correct through `Intl` (no offsets are stored).
 * A local time that does not exist (the hour skipped when clocks go forward)
 * is taken as that wall-clock time after the jump (02:30 → 03:30); one that
 * happens twice (clocks go back) is its first occurrence.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instant: number, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset from UTC at `instant`, in ms (Paris in summer: +7,200,000). */
function offsetAt(instant: number, timeZone: string): number {
  const c = wallClock(instant, timeZone);
  const asUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** `YYYY-MM-DD` of `instant` in `timeZone`. */
export function localDate(instant: Date, timeZone: string): string {
  const c = wallClock(instant.getTime(), timeZone);
  return `${c.year}-${String(c.month).padStart(2, '0')}-${String(c.day).padStart(2, '0')}`;
}

/** The instant `time` (HH:MM) happens on `date` (YYYY-MM-DD) in `timeZone`. */
export function digestInstant(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets half a day either side: equal except on a transition day.
  const earlier = offsetAt(wall - 43_200_000, timeZone);
  const later = offsetAt(wall + 43_200_000, timeZone);
  // A reading is real when the zone has that offset at that instant; the earliest real one wins (clocks going back).
  const real = [wall - earlier, wall - later].filter((instant, i) => offsetAt(instant, timeZone) === (i === 0 ? earlier : later));
  if (real.length > 0) return new Date(Math.min(...real));
  // Skipped (clocks going forward): the wall time read with the old offset lands after the jump.
  return new Date(wall - earlier);
}

/** The day after `date` (YYYY-MM-DD), calendar arithmetic. */
export function nextDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/** The first digest instant strictly after `after`: today's if it is still ahead, else tomorrow's. */
export function nextDigestAfter(after: Date, time: string, timeZone: string): { date: string; dueAt: Date } {
  let date = localDate(after, timeZone);
  let dueAt = digestInstant(date, time, timeZone);
  while (dueAt.getTime() <= after.getTime()) {
    date = nextDate(date);
    dueAt = digestInstant(date, time, timeZone);
  }
  return { date, dueAt };
}
