import { describe, expect, it } from '@jest/globals';
import { aspectRatio, attachedOf, dominantType, toAttachedList, toMediaView, type MediaFacts } from './attached-media.js';

describe('attached media', () => {
  it('keeps the order sent (display_order from 0), defaults role and alt text, and lower-cases ids', () => {
    expect(toAttachedList([{ media_id: 'AB' }, { media_id: 'cd', alt_text: 'x', role: 'cover' }])).toEqual([
      { media_id: 'ab', alt_text: '', role: 'attachment', display_order: 0, settings: {} },
      { media_id: 'cd', alt_text: 'x', role: 'cover', display_order: 1, settings: {} },
    ]);
  });

  it('reads stored lists defensively', () => {
    expect(attachedOf(null)).toEqual([]);
    expect(attachedOf([{ id: 'old-shape' }, { media_id: 'm', role: 7 }])).toEqual([
      { media_id: 'm', alt_text: '', role: 'attachment', display_order: 0, settings: {} },
    ]);
  });

  it('reduced aspect ratio, "" when unknown; dominant type', () => {
    expect(aspectRatio(1080, 1350)).toBe('4:5');
    expect(aspectRatio(1920, 1080)).toBe('16:9');
    expect(aspectRatio(4000, 3000)).toBe('4:3');
    expect(aspectRatio(0, 100)).toBe('');
    expect([dominantType('image/gif'), dominantType('video/mp4'), dominantType('image/jpeg')]).toEqual(['gif', 'video', 'image']);
  });

  it('PublicationMedia: every member from the item and what the author said', () => {
    const facts: MediaFacts = {
      id: 'v',
      workspace_id: 'w',
      status: 'ready',
      filename: 'clip.mp4',
      mime_type: 'video/mp4',
      size: 1234,
      sha256: 'aa',
      width: 1920,
      height: 1080,
      duration_ms: 5000,
      frame_rate: 29.97,
      analysis_status: 'ready',
      analysis_error: '',
      poster_media_id: 'p',
      thumbnail_timestamp_ms: 1000,
      object_key: 'k',
      public_url_ready: true,
      public_url_status: 200,
      public_url_checked_at: '2026-11-26T10:00:00.000Z',
      public_url_error: '',
    };
    expect(toMediaView({ media_id: 'v', alt_text: 'a clip', role: 'attachment', display_order: 2, settings: {} }, facts)).toEqual({
      id: 'v',
      url: '/media/v/content',
      role: 'attachment',
      mime_type: 'video/mp4',
      original_filename: 'clip.mp4',
      alt_text: 'a clip',
      aspect_ratio: '16:9',
      dominant_type: 'video',
      analysis_status: 'ready',
      analysis_error: '',
      poster_thumbnail_url: '/media/p/content',
      public_url_checked_at: '2026-11-26T10:00:00.000Z',
      public_url_error: '',
      public_url_status: 200,
      public_url_ready: true,
      display_order: 2,
      duration_ms: 5000,
      width: 1920,
      height: 1080,
      size: 1234,
      thumbnail_timestamp_ms: 1000,
      frame_rate: 29.97,
      settings: {},
    });
  });
});
