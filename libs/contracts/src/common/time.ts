import { ValidateBy } from 'class-validator';

/** RFC 3339 date-times as accepted in requests (answers are always UTC with milliseconds). */
export const RFC3339_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * The shape and a real calendar moment: JavaScript's Date would roll
 * 2026-02-31 over into March and refuses month 13 only as "Invalid Date",
 * which must be a 422, never reach the database.
 */
export function isRfc3339DateTime(value: unknown): value is string {
  const match = typeof value === 'string' ? RFC3339_PATTERN.exec(value) : null;
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const offsetOk = match[8] === 'Z' || (Number(match[9]) <= 23 && Number(match[10]) <= 59);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetOk;
}

export function IsRfc3339DateTime(): PropertyDecorator {
  return ValidateBy({
    name: 'isRfc3339DateTime',
    validator: { validate: (value) => isRfc3339DateTime(value), defaultMessage: () => '$property must be an RFC 3339 date-time' },
  });
}
