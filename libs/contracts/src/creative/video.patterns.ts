/** NATS subjects of the creative service's video projects and project assets (`creative.<feature>.<verb>`). */
export const VideoProjectPatterns = {
  /**
   * → VideoProjectSummary: the answer's document is the one the request
   * carried (the gateway adds it back; it need not cross NATS twice).
   */
  create: 'creative.video-projects.create',
  list: 'creative.video-projects.list',
  get: 'creative.video-projects.get',
  /** → VideoProjectSummary, as `create`. */
  replace: 'creative.video-projects.replace',
  delete: 'creative.video-projects.delete',
  restore: 'creative.video-projects.restore',
  listRevisions: 'creative.video-projects.list-revisions',
  getRevision: 'creative.video-projects.get-revision',
  restoreRevision: 'creative.video-projects.restore-revision',

  createAsset: 'creative.project-assets.create',
  listAssets: 'creative.project-assets.list',
  getAsset: 'creative.project-assets.get',
  deleteAsset: 'creative.project-assets.delete',
  /** Internal (media at E17): is this a pending asset of the workspace? → ProjectAssetCheck or a problem (404, 409). */
  checkAsset: 'creative.project-assets.check',
} as const;

/** Durable (media's outbox): the upload of a project asset completed; the asset becomes ready with its media item. */
export const PROJECT_ASSET_COMPLETED_SUBJECT = 'durable.media.project-asset.completed';
/** Durable (media's outbox): the upload of a project asset was refused or expired; the asset becomes failed. */
export const PROJECT_ASSET_FAILED_SUBJECT = 'durable.media.project-asset.failed';
/** Durable (creative's outbox): a project asset is gone (deleted, or its project purged); media deletes its items. */
export const PROJECT_ASSET_DELETED_SUBJECT = 'durable.creative.project-asset.deleted';
