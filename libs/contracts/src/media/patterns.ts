/** NATS subjects served by the media service (`<service>.<feature>.<verb>`). */
export const MEDIA_SERVICE = 'media';

export const MediaPatterns = {
  createUploadSession: 'media.upload-sessions.create',
  completeUploadSession: 'media.upload-sessions.complete',
  /** Internal (gateway only): may bytes be written for this session now? → UploadTarget. */
  uploadTarget: 'media.upload-sessions.target',
  /** Internal (gateway only): the bytes written under UploadTarget.object_key become the session's, while it is pending → 204-like void. */
  commitUpload: 'media.upload-sessions.commit',

  listMedia: 'media.library.list',
  getMedia: 'media.library.get',
  /** Internal (gateway only): where a readable item's bytes are → MediaContentTarget. */
  mediaContent: 'media.library.content',
  deleteMedia: 'media.library.delete',
  setMediaTags: 'media.library.set-tags',
  /** Service to service (publishing): the items of a workspace's library among some ids → ResolvedMediaList. */
  resolveMedia: 'media.library.resolve',

  /** Service to service: a signed, expiring public URL of a ready item → PublicMediaUrl. */
  issuePublicUrl: 'media.public-urls.issue',
  /** Internal (gateway only, after it checked the public URL's token): where the item's bytes are → MediaContentTarget. */
  publicContent: 'media.public-urls.content',

  createTag: 'media.tags.create',
  listTags: 'media.tags.list',
  updateTag: 'media.tags.update',
  deleteTag: 'media.tags.delete',
} as const;

/** Durable (media's outbox): an item's analysis ended (ready or failed), or its public_url_* changed → MediaItemAnalysedEvent. */
export const MEDIA_ITEM_ANALYSED_SUBJECT = 'durable.media.item.analysed';
