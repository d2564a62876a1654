import type { Publication, PublicationList, PublicationMedia } from './publications.dto.js';

/** A URL the publishing service answers relative to {base_url} (`/media/{id}/content`), made absolute. */
const absolute = (baseUrl: string, url: string): string => (url.startsWith('/') ? `${baseUrl}${url}` : url);

function withBase(baseUrl: string, media: PublicationMedia[]): PublicationMedia[] {
  return media.map((item) => ({
    ...item,
    url: absolute(baseUrl, item.url),
    poster_thumbnail_url: absolute(baseUrl, item.poster_thumbnail_url),
  }));
}

/**
 * Every PublicationMedia of a publication (its own, its segments', its renditions' and their parts') with absolute URLs
 * (docs/decisions.md).
 */
export function publicationWithBase(baseUrl: string, publication: Publication): Publication {
  return {
    ...publication,
    media: withBase(baseUrl, publication.media),
    segments: publication.segments.map((segment) => ({ ...segment, media: withBase(baseUrl, segment.media) })),
    renditions: publication.renditions.map((rendition) => ({
      ...rendition,
      media: withBase(baseUrl, rendition.media),
      segments: rendition.segments.map((segment) => ({ ...segment, media: withBase(baseUrl, segment.media) })),
    })),
  };
}

export function publicationListWithBase(baseUrl: string, list: PublicationList): PublicationList {
  return { ...list, publications: list.publications.map((publication) => publicationWithBase(baseUrl, publication)) };
}
