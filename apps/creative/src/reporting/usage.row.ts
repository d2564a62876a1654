/** A creator's video projects (trashed ones until purged) and image designs. */
export interface CreatorUsageRow {
  user_id: string;
  projects: number;
  designs: number;
}

/** Every video project and image design of the instance. */
export interface UsageTotalsRow {
  projects: number;
  designs: number;
}
