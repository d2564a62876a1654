import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * A housekeeping pass each replica runs on its own timer: one pass at a time (a slow one is not stacked on), a
 * failed pass logged and retried at the next tick, and a pass in progress finished before the shutdown hooks close
 * the DataSource. Subclasses say what a pass does (`sweep`, which answers how much it did).
 */
export abstract class PeriodicSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  protected constructor(private readonly schedule: { intervalMs: number; logger: Logger; failure: string }) {}

  abstract sweep(): Promise<number>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .catch((error: unknown) => this.schedule.logger.warn({ err: error }, this.schedule.failure))
        .finally(() => (this.running = undefined));
    }, this.schedule.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
