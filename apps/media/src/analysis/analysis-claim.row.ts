import type { MediaAnalysisStatus } from '@social/contracts';

/** A media item as the analysis claim hands it over (`lease`: this claim's `analysis_lease`). */
export interface AnalysisClaimRow {
  id: string;
  workspace_id: string;
  filename: string;
  object_key: string;
  mime_type: string;
  /** bigint, as pg gives it. */
  size: string;
  created_by: string;
  analysis_status: MediaAnalysisStatus;
  public_check_due: boolean;
  analysis_attempts: number;
  poster_media_id: string | null;
  project_asset_id: string | null;
  lease: string;
}

/** When the next item is due for analysis or a public-URL check. */
export interface AnalysisDueRow {
  at: Date;
}
