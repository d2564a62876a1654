import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTemporaryDatabase,
  freePort,
  generateSecrets,
  PrivateNats,
  RunningStack,
  startPrivateNats,
  startStack,
  TemporaryDatabase,
  waitFor,
} from '@social/testing';

// The dev runner's supervision (`npm start` = startStack with restartOnCrash): a killed service comes back on its own.
describe('startStack with restartOnCrash', () => {
  let nats: PrivateNats;
  let db: TemporaryDatabase;
  let stack: RunningStack;
  const lines: string[] = [];

  beforeAll(async () => {
    nats = await startPrivateNats();
    db = await createTemporaryDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'restart_spec');
    stack = await startStack({
      databaseUrl: db.url,
      natsUrl: nats.url,
      port: await freePort(),
      secrets: generateSecrets(),
      logLevel: 'warn',
      stdio: 'ignore',
      restartOnCrash: { log: (line) => lines.push(line) },
    });
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
    await nats?.stop();
    await db?.drop();
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
