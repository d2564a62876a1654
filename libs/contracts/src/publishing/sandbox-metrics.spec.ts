import { sandboxFollowRecommendations, sandboxMutuals } from './sandbox-metrics.js';

describe('sandbox growth recommendations (docs/decisions.md)', () => {
  it('names 1–3 mutuals per item with the capitalised keys, and counts at least as many', () => {
    const lengths = new Set<number>();
    for (let account = 0; account < 20; account++) {
      for (const item of sandboxFollowRecommendations(`sandbox-account-${account}`, 20)) {
        lengths.add(item.mutuals.length);
        expect(item.mutuals.length).toBeGreaterThanOrEqual(1);
        expect(item.mutuals.length).toBeLessThanOrEqual(3);
        expect(item.mutualCount).toBeGreaterThanOrEqual(item.mutuals.length);
        for (const mutual of item.mutuals) expect(Object.keys(mutual).sort()).toEqual(['AvatarURL', 'DisplayName', 'Handle', 'RemoteID']);
        expect(new Set(item.mutuals.map((m) => m.DisplayName)).size).toBe(item.mutuals.length);
      }
    }
    expect([...lengths].sort()).toEqual([1, 2, 3]);
  });

  it('is deterministic, with realistic members', () => {
    expect(sandboxMutuals('a:0')).toEqual(sandboxMutuals('a:0'));
    expect(sandboxMutuals('a:0')).not.toEqual(sandboxMutuals('a:1'));
    for (const mutual of sandboxMutuals('b:3')) {
      expect(mutual.RemoteID).toMatch(/^sandbox-[0-9a-f]{16}$/);
      expect(mutual.Handle).toMatch(/^[a-z]+_[a-z]+_[0-9a-f]{4}$/);
      expect(mutual.DisplayName).toMatch(/^\S+ \S+$/);
      expect(mutual.AvatarURL).toBe(`https://sandbox.invalid/avatars/${mutual.RemoteID}.png`);
    }
  });
});
