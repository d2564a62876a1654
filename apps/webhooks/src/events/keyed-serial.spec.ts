import { KeyedSerial } from './keyed-serial.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedSerial', () => {
  it('runs one key in order, even when an earlier piece is slower or fails', async () => {
    const serial = new KeyedSerial();
    const done: string[] = [];
    const first = serial.run('a', async () => {
      await tick(30);
      done.push('a1');
      throw new Error('a1 failed');
    });
    const second = serial.run('a', async () => {
      done.push('a2');
      return 2;
    });
    await expect(first).rejects.toThrow('a1 failed');
    await expect(second).resolves.toBe(2);
    expect(done).toEqual(['a1', 'a2']);
  });

  it('lets other keys run beside it, and forgets keys once idle', async () => {
    const serial = new KeyedSerial();
    const done: string[] = [];
    const slow = serial.run('a', async () => {
      await tick(30);
      done.push('a');
    });
    await serial.run('b', async () => {
      done.push('b');
    });
    await slow;
    expect(done).toEqual(['b', 'a']);
    await tick(0);
    expect(serial.size).toBe(0);
  });
});
