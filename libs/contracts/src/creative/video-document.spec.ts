import { referencedAssetIds, VideoDocument, videoDocumentErrors } from './video-document.js';

const ASSET = '0192d6a8-1c5e-7f00-8000-000000000001';
const OTHER = '0192d6a8-1c5e-7f00-8000-000000000002';

function doc(tracks: VideoDocument['tracks'], duration = 10_000): VideoDocument {
  return { schema_version: 1, width_px: 1080, height_px: 1920, frame_rate: 30, duration_ms: duration, tracks };
}

describe('videoDocumentErrors', () => {
  it('accepts back-to-back clips, clips ending exactly at the end, and an empty timeline', () => {
    expect(
      videoDocumentErrors(
        doc([
          { id: 'v', kind: 'video', clips: [{ id: 'b', asset_id: ASSET, start_ms: 5_000, duration_ms: 5_000 }, { id: 'a', asset_id: ASSET, start_ms: 0, duration_ms: 5_000 }] },
          { id: 't', kind: 'text', clips: [{ id: 'c', start_ms: 0, duration_ms: 10_000, text: 'x' }] },
        ]),
        'body.document',
      ),
    ).toEqual([]);
    expect(videoDocumentErrors(doc([], 0), 'body.document')).toEqual([]);
  });

  it('names an overlap at the later clip, by its index in the request, whatever order the clips were sent in', () => {
    const errors = videoDocumentErrors(
      doc([{ id: 'v', kind: 'audio', clips: [{ id: 'late', asset_id: ASSET, start_ms: 3_000, duration_ms: 1_000 }, { id: 'early', asset_id: ASSET, start_ms: 0, duration_ms: 3_001 }] }]),
      'body.document',
    );
    expect(errors).toEqual([{ location: 'body.document.tracks[0].clips[0].start_ms', message: 'must not overlap clip 1 of the track', value: 3_000 }]);
  });

  it('refuses clips past the end, duplicate ids across tracks, and asset/text on the wrong kind of track', () => {
    const errors = videoDocumentErrors(
      doc([
        { id: 'v', kind: 'overlay', clips: [{ id: 'x', start_ms: 9_000, duration_ms: 1_001 }] },
        { id: 'v', kind: 'text', clips: [{ id: 'x', asset_id: ASSET, start_ms: 0, duration_ms: 1 }] },
      ]),
      'body.document',
    );
    expect(errors.map((e) => e.location)).toEqual([
      'body.document.tracks[0].clips[0].duration_ms',
      'body.document.tracks[0].clips[0].asset_id',
      'body.document.tracks[1].id',
      'body.document.tracks[1].clips[0].id',
      'body.document.tracks[1].clips[0].asset_id',
      'body.document.tracks[1].clips[0].text',
    ]);
  });
});

describe('referencedAssetIds', () => {
  it('lists each played asset once, lower-cased', () => {
    expect(
      referencedAssetIds(
        doc([
          { id: 'v', kind: 'video', clips: [{ id: 'a', asset_id: ASSET.toUpperCase(), start_ms: 0, duration_ms: 1 }, { id: 'b', asset_id: ASSET, start_ms: 1, duration_ms: 1 }] },
          { id: 'w', kind: 'audio', clips: [{ id: 'c', asset_id: OTHER, start_ms: 0, duration_ms: 1 }] },
        ]),
      ),
    ).toEqual([ASSET, OTHER]);
    expect(referencedAssetIds({})).toEqual([]);
  });
});
