import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { batchedDestination } from './logger.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger writing to a fresh file through `batchedDestination`, and the lines the file holds so far. */
function logToFile(flushIntervalMs?: number) {
  const file = join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log');
  const destination = batchedDestination(openSync(file, 'w'), flushIntervalMs);
  const logger = pino({ base: null }, destination);
  const lines = () => readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return { logger, destination, lines };
}

describe('batchedDestination', () => {
  it('holds a line back until the interval passes, then writes it', async () => {
    const { logger, destination, lines } = logToFile();
    logger.info('first');
    expect(lines()).toEqual([]);
    await sleep(250);
    expect(lines().map((line) => JSON.parse(line).msg)).toEqual(['first']);
    destination.end();
  });

  it('writes without waiting for the interval once 4 KiB are pending', async () => {
    const { logger, destination, lines } = logToFile(60_000);
    const filler = 'x'.repeat(100);
    logger.info(filler);
    await sleep(50);
    expect(lines()).toEqual([]);
    for (let n = 0; n < 49; n++) logger.info(filler);
    await sleep(50);
    // A 4 KiB batch went out (about 29 lines of this size); the rest waits for the next 4 KiB or the interval.
    expect(lines().length).toBeGreaterThanOrEqual(20);
    expect(lines().length).toBeLessThan(50);
    destination.end();
  });

  it('writes the rest of a batch at the next interval, also when a write was under way', async () => {
    const { logger, destination, lines } = logToFile();
    const filler = 'x'.repeat(100);
    for (let round = 0; round < 3; round++) {
      for (let n = 0; n < 50; n++) logger.info(filler);
      await sleep(250);
      expect(lines()).toHaveLength(50 * (round + 1));
    }
    destination.end();
  });
});
