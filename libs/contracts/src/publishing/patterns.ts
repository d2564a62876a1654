/** NATS subjects served by the publishing service (`<service>.<feature>.<verb>`). */
export const PUBLISHING_SERVICE = 'publishing';

export const PublishingPatterns = {
  createPublication: 'publishing.publications.create',
  listPublications: 'publishing.publications.list',
  getPublication: 'publishing.publications.get',
  updatePublication: 'publishing.publications.update',
  deletePublication: 'publishing.publications.delete',
  schedulePublication: 'publishing.publications.schedule',
  publishPublicationNow: 'publishing.publications.publish-now',
  cancelPublication: 'publishing.publications.cancel',
  retryPublication: 'publishing.publications.retry',
  listDeliveries: 'publishing.publications.deliveries',
  updateRendition: 'publishing.renditions.update',
  previewPublication: 'publishing.publications.preview',
  planAngles: 'publishing.publication-builds.angles',

  /** Service to service (media, before DELETE /media/{id}): MediaUsageRequest → MediaUsage. */
  mediaUsage: 'publishing.media.usage',
} as const;
