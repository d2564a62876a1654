/** NATS subjects served by the media service (`<service>.<feature>.<verb>`); its HTTP operations are in `*.operations.ts`. */
export const MEDIA_SERVICE = 'media';

export const MediaPatterns = {
  /** Service to service (publishing): the items of a workspace's library among some ids → ResolvedMediaList. */
  resolveMedia: 'media.library.resolve',
  /** Service to service (webhooks): one library item as the API shows it (a MediaItem) → ResourceAnswer. */
  readItem: 'media.library.read',

  /** Service to service: a signed, expiring public URL of a ready item → PublicMediaUrl. */
  issuePublicUrl: 'media.public-urls.issue',
  /**
   * Service to service (publishing): a public URL of the copy of an item a network receives (an image converted and
   * stripped of its metadata at delivery, stored under the item's key) → PublicMediaUrl.
   */
  shareDeliveryCopy: 'media.delivery-copies.share',
  /** Internal (gateway only, after it checked the public URL's token): where the item's bytes are → MediaContentTarget. */
  publicContent: 'media.public-urls.content',
} as const;

/** Durable (media's outbox): an item's analysis ended (ready or failed), or its public_url_* changed → MediaItemAnalysedEvent. */
export const MEDIA_ITEM_ANALYSED_SUBJECT = 'durable.media.item.analysed';
