import { describe, expect, it } from '@jest/globals';
import { parseAngles } from './angle-output.js';

const core = (n: number) => ({ label: `L${n}`, hook: `H${n}`, thesis: `T${n}` });
const json = (value: unknown) => JSON.stringify(value);
const EMPTY = {
  approach: '',
  objective: '',
  desired_reaction: '',
  evidence: '',
  build_direction: { angle: '', audience: '', media_preference: '', outcome: '', tone_adjustment: '' },
  media: { brief: '', role: '', source_ref: '', treatment: '' },
};

describe('parseAngles', () => {
  it('keeps every member, trims strings, and fills what the model left out (or sent as null) with ""', () => {
    const full = {
      ...core(1),
      approach: ' story ',
      objective: 'o',
      desired_reaction: 'r',
      evidence: 'e',
      build_direction: { angle: 'a', audience: 'b', media_preference: 'c', outcome: 'd', tone_adjustment: null },
      media: { brief: 'b', role: 'r', source_ref: 's', treatment: 't' },
    };
    expect(parseAngles(json({ angles: [full, core(2), { ...core(3), media: null }] }))).toEqual({
      angles: [
        { ...full, approach: 'story', build_direction: { ...full.build_direction, tone_adjustment: '' } },
        { ...core(2), ...EMPTY },
        { ...core(3), ...EMPTY },
      ],
    });
  });

  it("drops unknown members and the model's own ids", () => {
    const parsed = parseAngles(
      json({ angles: [{ ...core(1), id: 'x', extra: 1, media: { brief: 'b', mood: 'm' } }, core(2), core(3)], note: 'hi' }),
    );
    expect(parsed).toEqual({
      angles: [
        { ...core(1), ...EMPTY, media: { ...EMPTY.media, brief: 'b' } },
        { ...core(2), ...EMPTY },
        { ...core(3), ...EMPTY },
      ],
    });
  });

  it('takes 3 to 5 angles', () => {
    expect(parseAngles(json({ angles: [core(1), core(2)] }))).toEqual({ error: '2 angles' });
    expect(parseAngles(json({ angles: [1, 2, 3, 4, 5].map(core) }))).toHaveProperty('angles');
    expect(parseAngles(json({ angles: [1, 2, 3, 4, 5, 6].map(core) }))).toEqual({ error: '6 angles' });
  });

  it('reads JSON inside one Markdown code fence', () => {
    expect(parseAngles('```json\n' + json({ angles: [core(1), core(2), core(3)] }) + '\n```')).toHaveProperty('angles');
  });

  it.each([
    ['text', 'Sure! Here are three angles.', 'not JSON'],
    ['an array', json([core(1), core(2), core(3)]), 'no "angles" array'],
    ['angles not an array', json({ angles: 'three' }), 'no "angles" array'],
    ['an angle that is not an object', json({ angles: [core(1), core(2), 'third'] }), 'angles[2] is not an object'],
    ['a blank label', json({ angles: [core(1), { ...core(2), label: '  ' }, core(3)] }), 'angles[1].label is missing or blank'],
    ['a missing thesis', json({ angles: [core(1), core(2), { label: 'l', hook: 'h' }] }), 'angles[2].thesis is missing or blank'],
    ['a number for a string', json({ angles: [{ ...core(1), evidence: 3 }, core(2), core(3)] }), 'angles[0].evidence is not a string'],
    ['media as text', json({ angles: [{ ...core(1), media: 'photo' }, core(2), core(3)] }), 'angles[0].media is not an object'],
    [
      'a nested member of the wrong type',
      json({ angles: [core(1), { ...core(2), build_direction: { audience: ['a'] } }, core(3)] }),
      'angles[1].build_direction.audience is not a string',
    ],
    [
      'a rambling member',
      json({ angles: [{ ...core(1), evidence: 'x'.repeat(5_001) }, core(2), core(3)] }),
      'angles[0].evidence is longer than 5000 characters',
    ],
  ])('refuses %s', (_name, content, error) => {
    expect(parseAngles(content)).toEqual({ error });
  });
});
