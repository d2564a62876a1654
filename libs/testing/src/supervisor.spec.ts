import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { Supervisor } from './supervisor.js';
import { waitFor } from './processes.js';

const crashing = () => spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' });

describe('Supervisor', () => {
  it('restarts a process that keeps exiting with a doubling, capped delay, and stops restarting once stopped', async () => {
    const lines: string[] = [];
    let spawned = 0;
    const supervisor = new Supervisor(crashing(), {
      name: 'app',
      spawn: () => {
        spawned += 1;
        return crashing();
      },
      log: (line) => lines.push(line),
      isBack: async () => false,
      policy: { initialDelayMs: 50, maxDelayMs: 200, resetAfterMs: 60_000 },
    });
    await waitFor('four restarts', async () => lines.length >= 5, 10_000);
    await supervisor.stop();
    expect(lines.slice(0, 5)).toEqual([
      'app exited (code 3); restarting in 0.05 s',
      'app exited (code 3); restarting in 0.1 s',
      'app exited (code 3); restarting in 0.2 s',
      'app exited (code 3); restarting in 0.2 s',
      'app exited (code 3); restarting in 0.2 s',
    ]);
    const after = spawned;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(spawned).toBe(after);
  });

  it('says the app is back once isBack answers yes, and starts from the first delay after a long run', async () => {
    const lines: string[] = [];
    const longRunner = () => spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(1), 300)'], { stdio: 'ignore' });
    const supervisor = new Supervisor(longRunner(), {
      name: 'app',
      spawn: longRunner,
      log: (line) => lines.push(line),
      isBack: async () => true,
      // Every run (300 ms) counts as long: the delay never grows.
      policy: { initialDelayMs: 50, maxDelayMs: 1_000, resetAfterMs: 100 },
    });
    await waitFor('two crashes and comebacks', async () => lines.length >= 4, 10_000);
    await supervisor.stop();
    expect(lines.slice(0, 4)).toEqual([
      'app exited (code 1); restarting in 0.05 s',
      'app is back',
      'app exited (code 1); restarting in 0.05 s',
      'app is back',
    ]);
  });
});
