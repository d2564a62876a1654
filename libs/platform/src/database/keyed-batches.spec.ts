import { describe, expect, it } from '@jest/globals';
import { KeyedBatches, togetherOrEachAlone } from './keyed-batches.js';

describe('KeyedBatches', () => {
  it('runs the first item at once and the ones that arrive meanwhile together, one batch of a key at a time', async () => {
    const batches: Array<[string, number[]]> = [];
    let release!: () => void;
    const batcher = new KeyedBatches<number, number>(async (key, items) => {
      batches.push([key, items]);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((item) => item * 10);
    });
    const first = batcher.add('a', 1);
    const waiting = [batcher.add('a', 2), batcher.add('a', 3)];
    // Another key does not wait for this one.
    expect(await batcher.add('b', 4)).toBe(40);
    expect(batches).toEqual([
      ['a', [1]],
      ['b', [4]],
    ]);
    release();
    expect(await first).toBe(10);
    expect(await Promise.all(waiting)).toEqual([20, 30]);
    expect(batches[2]).toEqual(['a', [2, 3]]);
    // Once a key's batches have ended, its next item runs at once again.
    expect(await batcher.add('a', 5)).toBe(50);
    expect(batches[3]).toEqual(['a', [5]]);
  });

  it("rejects the items of a failed batch only; the key's next batch still runs", async () => {
    let calls = 0;
    let release!: () => void;
    const batcher = new KeyedBatches<string, string>(async (_key, items) => {
      calls += 1;
      if (calls === 1) {
        await new Promise<void>((resolve) => (release = resolve));
        throw new Error('connection lost');
      }
      return items.map((item) => item.toUpperCase());
    });
    const failed = batcher.add('p', 'x');
    const next = batcher.add('p', 'y');
    release();
    await expect(failed).rejects.toThrow('connection lost');
    expect(await next).toBe('Y');
  });

  it('with gatherMs, runs the items that arrive within it in the first batch', async () => {
    const batches: number[][] = [];
    const batcher = new KeyedBatches<number, number>(async (_key, items) => {
      batches.push(items);
      return items;
    }, 50);
    const first = batcher.add('a', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = batcher.add('a', 2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('with togetherOrEachAlone, a failed batch runs each item alone: only the bad one is rejected', async () => {
    const runs: string[][] = [];
    const run = async (items: string[]) => {
      runs.push(items);
      if (items.includes('bad')) throw new Error(`cannot take ${items.join(',')}`);
      return items.map((item) => item.toUpperCase());
    };
    const batcher = new KeyedBatches<string, string>((_key, items) => togetherOrEachAlone(items, run), 20);
    const [good, bad, other] = [batcher.add('k', 'good'), batcher.add('k', 'bad'), batcher.add('k', 'other')];
    expect(await good).toBe('GOOD');
    await expect(bad).rejects.toThrow('cannot take bad');
    expect(await other).toBe('OTHER');
    expect(runs).toEqual([['good', 'bad', 'other'], ['good'], ['bad'], ['other']]);
  });
});
