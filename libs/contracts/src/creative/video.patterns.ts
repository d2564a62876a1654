/** NATS subjects of the creative service's video projects and project assets that are not HTTP operations. */
export const VideoProjectPatterns = {
  /** Internal (media at E17): is this a pending asset of the workspace? → ProjectAssetCheck or a problem (404, 409). */
  checkAsset: 'creative.project-assets.check',
} as const;

/** Durable (media's outbox): the upload of a project asset completed; the asset becomes ready with its media item. */
export const PROJECT_ASSET_COMPLETED_SUBJECT = 'durable.media.project-asset.completed';
/** Durable (media's outbox): the upload of a project asset was refused or expired; the asset becomes failed. */
export const PROJECT_ASSET_FAILED_SUBJECT = 'durable.media.project-asset.failed';
/** Durable (creative's outbox): a project asset is gone (deleted, or its project purged); media deletes its items. */
export const PROJECT_ASSET_DELETED_SUBJECT = 'durable.creative.project-asset.deleted';
