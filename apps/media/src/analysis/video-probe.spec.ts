import { describe, expect, it } from '@jest/globals';
import { parseFrameRate, parseProbe, posterTimestampMs, ToolFailure } from './video-probe.js';

describe('parseProbe', () => {
  it("reads duration, frame rate and dimensions of ffprobe's first video stream", () => {
    const output = {
      streams: [
        { codec_type: 'audio', duration: '2.1' },
        { codec_type: 'video', width: 320, height: 240, avg_frame_rate: '25/1', r_frame_rate: '25/1', duration: '2.000000' },
      ],
      format: { duration: '2.040000' },
    };
    expect(parseProbe(output)).toEqual({ durationMs: 2040, frameRate: 25, width: 320, height: 240 });
  });

  it('falls back to the stream duration and r_frame_rate; swaps the dimensions of a quarter-turned video', () => {
    expect(
      parseProbe({
        streams: [
          {
            codec_type: 'video',
            width: 1920,
            height: 1080,
            avg_frame_rate: '0/0',
            r_frame_rate: '30000/1001',
            duration: '3.5',
            side_data_list: [{ rotation: -90 }],
          },
        ],
      }),
    ).toEqual({
      durationMs: 3500,
      frameRate: 29.97,
      width: 1080,
      height: 1920,
    });
    expect(parseProbe({ streams: [{ codec_type: 'video', width: 640, height: 480, tags: { rotate: '270' } }], format: {} })).toEqual({
      durationMs: 0,
      frameRate: 0,
      width: 480,
      height: 640,
    });
    expect(parseProbe({ streams: [{ codec_type: 'video', width: 640, height: 480, side_data_list: [{ rotation: 180 }] }] })).toMatchObject({
      width: 640,
      height: 480,
    });
  });

  it('refuses a file without a video stream (audio only, a cover picture only, nothing)', () => {
    for (const output of [
      { streams: [{ codec_type: 'audio' }] },
      { streams: [{ codec_type: 'video', disposition: { attached_pic: 1 } }] },
      {},
      null,
    ]) {
      expect(() => parseProbe(output)).toThrow(ToolFailure);
      expect(() => parseProbe(output)).toThrow('the file has no video stream');
    }
  });

  it('unknown numbers are 0, never NaN or negative', () => {
    expect(
      parseProbe({
        streams: [{ codec_type: 'video', width: -1, height: 'x' as unknown as number, avg_frame_rate: 'a/b' }],
        format: { duration: 'N/A' },
      }),
    ).toEqual({
      durationMs: 0,
      frameRate: 0,
      width: 0,
      height: 0,
    });
  });
});

describe('parseFrameRate and posterTimestampMs', () => {
  it('reads fractions', () => {
    expect(parseFrameRate('24000/1001')).toBe(23.976);
    expect(parseFrameRate('60')).toBe(60);
    expect(parseFrameRate('1/0')).toBe(0);
    expect(parseFrameRate(undefined)).toBe(0);
  });

  it('takes the poster at 1 s, or half-way through a shorter video', () => {
    expect(posterTimestampMs(2000)).toBe(1000);
    expect(posterTimestampMs(60_000)).toBe(1000);
    expect(posterTimestampMs(1500)).toBe(750);
    expect(posterTimestampMs(0)).toBe(0);
  });
});
