import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { batchedDestination } from './logger.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('batchedDestination', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log');
  const fd = openSync(file, 'w');
  const destination = batchedDestination(fd);
  const logger = pino({ base: null }, destination);
  const lines = () => readFileSync(file, 'utf8').split('\n').filter(Boolean);

  it('holds a line back until the interval passes, then writes it', async () => {
    logger.info('first');
    await sleep(20);
    expect(lines()).toEqual([]);
    await sleep(200);
    expect(lines().map((line) => JSON.parse(line).msg)).toEqual(['first']);
  });

  it('writes at once when 4 KiB are pending', async () => {
    const filler = 'x'.repeat(100);
    for (let n = 0; n < 50; n++) logger.info(filler);
    await sleep(20);
    expect(lines().length).toBeGreaterThan(1);
    await sleep(200);
    expect(lines()).toHaveLength(51);
    destination.end();
  });
});
