/**
 * Runs tasks once the event loop's current turn has ended (one `setImmediate` for all of them), in the order given.
 *
 * Why: nats.js writes what is published within one microtask drain in one socket write, but each HTTP request and
 * each database answer is its own turn, so under load every NATS message was a write of its own, and a read of its
 * own for the NATS server. Publishing at the end of the turn puts the messages of all the requests and answers that
 * one poll of the event loop brought in into one write; the wait it adds is the rest of that poll's work.
 */
export class EndOfTurn {
  private queued: Array<() => void> = [];

  constructor(private readonly onError: (error: unknown) => void = () => undefined) {}

  run(task: () => void): void {
    if (this.queued.push(task) === 1) setImmediate(() => this.runQueued());
  }

  private runQueued(): void {
    const tasks = this.queued;
    this.queued = [];
    for (const task of tasks) {
      try {
        task();
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
