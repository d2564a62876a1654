import { ConfigOf, serviceSettings, setting } from '@social/platform';

export const mediaSettings = {
  ...serviceSettings,
  /** Keys list cursors and the upload URLs' tokens (HMAC, keys derived per purpose). */
  SECRETS_KEY: setting.secretsKeyring(),
  /** How often the sweep looks for expired upload sessions (their rows and partial objects go). */
  MEDIA_SWEEP_INTERVAL_MS: setting.int(1_000, 3_600_000, 60_000),
  /** How often the bucket is walked for upload bytes no item will keep (a pass lists every object: hourly). */
  MEDIA_ORPHAN_SWEEP_INTERVAL_MS: setting.int(1_000, 86_400_000, 3_600_000),
  /** Videos probed at once per replica (each runs one ffprobe, then one ffmpeg). */
  MEDIA_ANALYSIS_CONCURRENCY: setting.int(1, 16, 2),
  /** The most one probe (or poster extraction) may take; the analysis lease is this plus 30 s. */
  MEDIA_ANALYSIS_TIMEOUT_MS: setting.int(5_000, 3_600_000, 120_000),
  /** How often the analysis worker looks for due work when no NOTIFY woke it. */
  MEDIA_ANALYSIS_POLL_MS: setting.int(100, 600_000, 30_000),
  /** The prober and the frame extractor (Debian's ffmpeg package puts both on PATH). */
  FFPROBE_PATH: setting.string('ffprobe'),
  FFMPEG_PATH: setting.string('ffmpeg'),
  /** Bytes a workspace may hold: ready items plus the declared size of open upload sessions (docs/decisions.md, default 10 GiB). */
  MEDIA_WORKSPACE_QUOTA_BYTES: setting.int(1, Number.MAX_SAFE_INTEGER, 10 * 1024 ** 3),
};
export type MediaConfig = ConfigOf<typeof mediaSettings>;
