import { describe, expect, it } from '@jest/globals';
import type { AttachedMedia } from '@social/contracts';
import type { MediaFacts } from '../media/attached-media.js';
import { readyMedia } from '../media/resolved-media.fixtures.js';
import { ruleProblems } from './network-rules-check.js';

const facts = (id: string, mime: string, extra: Partial<MediaFacts> = {}): MediaFacts => ({
  ...readyMedia(id, { mime_type: mime, size: 1000, width: 4000, height: 3000, object_key: '' }),
  ...extra,
});
const attach = (media_id: string, extra: Partial<AttachedMedia> = {}): AttachedMedia => ({
  media_id,
  alt_text: '',
  role: 'attachment',
  display_order: 0,
  settings: {},
  ...extra,
});
const known = new Map(
  [
    facts('i1', 'image/jpeg', { size: 50_000_000 }),
    facts('i2', 'image/png'),
    facts('i3', 'image/jpeg'),
    facts('i4', 'image/jpeg'),
    facts('i5', 'image/jpeg'),
    facts('v1', 'video/mp4', { size: 200_000_000, duration_ms: 200_000 }),
    facts('v2', 'video/mp4', { size: 10_000, duration_ms: 5_000 }),
  ].map((item) => [item.id, item]),
);

describe('network rules check', () => {
  it('images over byte and pixel limits are fixed at delivery, not refused', () => {
    expect(ruleProblems('a', 'sandbox', [{ media: ['i1', 'i2', 'i3', 'i4'].map((id) => attach(id)) }], known)).toEqual([]);
  });

  it('a fifth image is refused at its own index, naming the limit', () => {
    const problems = ruleProblems('a', 'sandbox', [{ media: ['i1', 'i2', 'i3', 'i4', 'i5'].map((id) => attach(id)) }], known);
    expect(problems).toEqual([
      { location: 'renditions.a.segments[0].media[4]', code: 'network_rules', message: expect.stringContaining('at most 4') },
    ]);
  });

  it('thumbnails and covers do not count as attachments', () => {
    const media = [...['i1', 'i2', 'i3', 'i4'].map((id) => attach(id)), attach('i5', { role: 'cover' })];
    expect(ruleProblems('a', 'sandbox', [{ media }], known)).toEqual([]);
  });

  it('images and a video in one post are refused where the network does not mix them; a video where only images fit', () => {
    expect(ruleProblems('a', 'mastodon', [{ media: [attach('i2'), attach('v2')] }], known).map((p) => p.location)).toEqual([
      'renditions.a.segments[0].media[1]',
    ]);
    expect(ruleProblems('a', 'sandbox', [{ media: [attach('v2')] }], known)).toEqual([]);
    const problems = ruleProblems('a', 'x', [{ media: [] }, { media: [attach('v2'), attach('v2')] }], known);
    expect(problems.map((p) => p.location)).toEqual(['renditions.a.segments[1].media[1]']);
  });

  it('a video too large or too long for the network', () => {
    const problems = ruleProblems('a', 'bluesky', [{ media: [attach('v1')] }], known);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining('at most 100000000 bytes'),
      expect.stringContaining('at most 180000 ms'),
    ]);
  });

  it('alt text longer than the network takes, at its member; dropped (not refused) where the network takes none', () => {
    const long = attach('i2', { alt_text: 'a'.repeat(1_001) });
    expect(ruleProblems('a', 'sandbox', [{ media: [long] }], known)).toEqual([
      { location: 'renditions.a.segments[0].media[0].alt_text', code: 'network_rules', message: expect.stringContaining('at most 1000') },
    ]);
    expect(ruleProblems('a', 'mastodon', [{ media: [long] }], known)).toEqual([]);
    expect(ruleProblems('a', 'tiktok', [{ media: [long] }], known)).toEqual([]);
  });

  it('media required but absent; a text that cannot be split', () => {
    expect(ruleProblems('a', 'instagram', [{ media: [] }], known)).toEqual([
      { location: 'renditions.a.media', code: 'network_rules', message: expect.stringContaining('instagram') },
    ]);
    expect(ruleProblems('a', 'linkedin', [{ media: [] }], known, 'is 4000 characters long').map((p) => p.location)).toEqual([
      'renditions.a.body',
    ]);
  });
});
