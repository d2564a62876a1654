/** NATS subjects served by the publishing service (`<service>.<feature>.<verb>`); its HTTP operations are in `*.operations.ts`. */
export const PUBLISHING_SERVICE = 'publishing';

export const PublishingPatterns = {
  /** Service to service (media, before DELETE /media/{id}): MediaUsageRequest → MediaUsage. */
  mediaUsage: 'publishing.media.usage',
  /** Service to service (webhooks): a publication, rendition or social account as the API shows it → ResourceAnswer. */
  readResource: 'publishing.resources.read',
} as const;
