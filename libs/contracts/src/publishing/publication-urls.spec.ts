import { describe, expect, it } from '@jest/globals';
import type { Publication, PublicationList, PublicationMedia } from './publications.dto.js';
import { publicationListWithBase, publicationWithBase } from './publication-urls.js';

const BASE = 'https://api.example.com';

const media = (id: string, url = `/media/${id}/content`, poster = `/media/${id}/poster`) =>
  ({ id, url, poster_thumbnail_url: poster }) as unknown as PublicationMedia;

const publication = (): Publication =>
  ({
    id: 'pub-1',
    media: [media('m1')],
    segments: [{ index: 0, media: [media('m2')] }],
    renditions: [
      {
        id: 'r1',
        media: [media('m3', 'https://cdn.example.net/m3.jpg', '')],
        segments: [{ index: 0, media: [media('m4')] }],
      },
    ],
  }) as unknown as Publication;

describe('publication media URLs', () => {
  it('become absolute everywhere in a publication: its media, segments, renditions and their segments', () => {
    const absolute = publicationWithBase(BASE, publication());
    expect(absolute.media[0]).toMatchObject({ url: `${BASE}/media/m1/content`, poster_thumbnail_url: `${BASE}/media/m1/poster` });
    expect(absolute.segments[0].media[0].url).toBe(`${BASE}/media/m2/content`);
    expect(absolute.renditions[0].segments[0].media[0].poster_thumbnail_url).toBe(`${BASE}/media/m4/poster`);
  });

  it('leave URLs that are already absolute, and empty ones, as they are', () => {
    const [rendition] = publicationWithBase(BASE, publication()).renditions;
    expect(rendition.media[0]).toMatchObject({ url: 'https://cdn.example.net/m3.jpg', poster_thumbnail_url: '' });
  });

  it('change nothing else, and leave the answer they were given untouched', () => {
    const original = publication();
    const absolute = publicationWithBase(BASE, original);
    expect(absolute.id).toBe('pub-1');
    expect(absolute.renditions[0].id).toBe('r1');
    expect(original.media[0].url).toBe('/media/m1/content');
  });

  it('apply to every publication of a list, keeping its other members', () => {
    const list = { publications: [publication(), publication()], next_cursor: 'c' } as unknown as PublicationList;
    const absolute = publicationListWithBase(BASE, list);
    expect(absolute.publications.map((p) => p.media[0].url)).toEqual([`${BASE}/media/m1/content`, `${BASE}/media/m1/content`]);
    expect((absolute as unknown as { next_cursor: string }).next_cursor).toBe('c');
  });
});
