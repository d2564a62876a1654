/** A creator's ready library items and their bytes (bigint text). */
export interface CreatorUsageRow {
  user_id: string;
  items: number;
  bytes: string;
}

/** Every ready library item of the instance and their bytes (bigint text). */
export interface UsageTotalsRow {
  items: number;
  bytes: string;
}
