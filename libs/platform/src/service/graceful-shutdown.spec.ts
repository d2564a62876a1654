import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { REPO_ROOT } from '@social/testing';

/** A process that installs closeGracefullyOnSignals (from the build output) with `close` taking `closeMs`, and says "ready". */
async function runWithShutdown(closeMs: number, graceMs: number) {
  const script = `
    import pino from 'pino';
    import { closeGracefullyOnSignals } from './libs/platform/dist/service/graceful-shutdown.js';
    closeGracefullyOnSignals(() => new Promise((resolve) => setTimeout(resolve, ${closeMs})), { logger: pino(), graceMs: ${graceMs} });
    setInterval(() => undefined, 1000); // work that would keep the process alive forever
    process.stdout.write('ready\\n');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve) => child.stdout.on('data', () => output.includes('ready') && resolve()));
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  child.kill('SIGTERM'); // a second signal does not cut the shutdown short
  const [code, signal] = await exited;
  return { code, signal, output };
}

describe('closeGracefullyOnSignals', () => {
  it('exits 0 once close has finished, despite a timer that would keep the process alive', async () => {
    const { code, signal, output } = await runWithShutdown(300, 5_000);
    expect([code, signal]).toEqual([0, null]);
    expect(output).toContain('shut down cleanly');
  });

  it('exits 1, saying so, when close outlasts the budget', async () => {
    const { code, output } = await runWithShutdown(10_000, 300);
    expect(code).toBe(1);
    expect(output).toContain('shutdown did not finish within SHUTDOWN_GRACE_MS');
  });
});
