import type { DailyCount } from '@social/contracts';
import type { DataSource } from 'typeorm';

export interface DailyCountQuery {
  /** A table with an `id` column, e.g. `users`. */
  table: string;
  /** Its timestamptz column that places a row on a day, e.g. `created_at`. */
  at: string;
  /** Extra SQL condition on the row, aliased `t` (e.g. `t.status = 'published'`). */
  where?: string;
  /** The window: this many UTC days ending today. */
  days: number;
}

/**
 * Rows per UTC day over the last `days` days, every day present (0 when none),
 * oldest first: the trends of the admin overview (E7). Days are UTC midnights
 * as timestamps without time zone: generate_series over dates would pick its
 * timestamptz variant and follow the session's zone.
 */
export function dailyCounts(dataSource: DataSource, query: DailyCountQuery): Promise<DailyCount[]> {
  return dataSource.query<DailyCount[]>(
    `SELECT to_char(d, 'YYYY-MM-DD') AS date, count(t.id)::int AS value
     FROM generate_series(date_trunc('day', now() AT TIME ZONE 'UTC') - ($1::int - 1) * interval '1 day',
                          date_trunc('day', now() AT TIME ZONE 'UTC'), interval '1 day') AS d
     LEFT JOIN ${query.table} t ON (${query.where ?? 'true'})
           AND t.${query.at} >= d AT TIME ZONE 'UTC' AND t.${query.at} < (d + interval '1 day') AT TIME ZONE 'UTC'
     GROUP BY d ORDER BY d`,
    [query.days],
  );
}
