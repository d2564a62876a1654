import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IsolatedStack, startIsolatedStack, waitFor } from '@social/testing';

// The dev runner's supervision (`npm start` = startStack with restartOnCrash): a killed service comes back on its own.
describe('startStack with restartOnCrash', () => {
  let stack: IsolatedStack;
  const lines: string[] = [];

  beforeAll(async () => {
    stack = await startIsolatedStack('restart_spec', {
      logLevel: 'warn',
      stdio: 'ignore',
      restartOnCrash: { log: (line) => lines.push(line) },
    });
  }, 90_000);

  afterAll(async () => {
    await stack?.stopAll();
  }, 30_000);

  it('restarts a service killed with SIGKILL after a second, says so, and /ready answers 200 again', async () => {
    const killed = stack.pids.notifications!;
    process.kill(killed, 'SIGKILL');
    await waitFor('the "exited" line', async () => lines.length > 0, 5_000);
    expect(lines[0]).toBe('notifications exited (signal SIGKILL); restarting in 1 s');

    await waitFor('the "is back" line', async () => lines.includes('notifications is back'), 45_000);
    expect((await fetch(`${stack.baseUrl}/ready`)).status).toBe(200);
    expect(stack.pids.notifications).toBeDefined();
    expect(stack.pids.notifications).not.toBe(killed);
    expect(lines).toEqual(['notifications exited (signal SIGKILL); restarting in 1 s', 'notifications is back']);
  }, 60_000);
});
