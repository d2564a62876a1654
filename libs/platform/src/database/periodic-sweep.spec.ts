import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { PeriodicSweep } from './periodic-sweep.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sweep whose passes wait for `release` (the test decides when a pass ends), failing when told to. */
class GatedSweep extends PeriodicSweep {
  passes = 0;
  finished = 0;
  failNext = false;
  private releases: Array<() => void> = [];

  constructor() {
    super({ intervalMs: 10, logger: pino({ level: 'silent' }), failure: 'test sweep failed' });
  }

  async sweep(): Promise<number> {
    this.passes++;
    await new Promise<void>((resolve) => this.releases.push(resolve));
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database unavailable');
    }
    return ++this.finished;
  }

  release(): void {
    this.releases.shift()?.();
  }

  async until(check: () => boolean): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await sleep(5);
    }
  }
}

describe('PeriodicSweep', () => {
  it('runs one pass at a time, goes on after a failed pass, and lets a pass in progress finish at shutdown', async () => {
    const sweep = new GatedSweep();
    sweep.onApplicationBootstrap();
    try {
      await sweep.until(() => sweep.passes === 1);
      // Many ticks go by while the first pass waits: none starts a second pass.
      await sleep(100);
      expect(sweep.passes).toBe(1);
      sweep.failNext = true;
      sweep.release();
      // The failure is logged, and the next tick starts the next pass.
      await sweep.until(() => sweep.passes === 2);
      expect(sweep.finished).toBe(0);
      let stopped = false;
      const stopping = sweep.beforeApplicationShutdown().then(() => (stopped = true));
      await sleep(50);
      expect(stopped).toBe(false);
      sweep.release();
      await stopping;
      expect(sweep.finished).toBe(1);
      // No pass starts after shutdown.
      await sleep(50);
      expect(sweep.passes).toBe(2);
    } finally {
      sweep.release();
      await sweep.beforeApplicationShutdown();
    }
  });
});
