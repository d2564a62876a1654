import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, type HealthCheckResult, type HealthIndicatorResult } from '@nestjs/terminus';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DataSource } from 'typeorm';

/** Budget of one dependency check in a readiness probe: below every probe's timeoutSeconds (2 s). */
export const PROBE_CHECK_TIMEOUT_MS = 1_000;
/**
 * An event loop this late (p99 of the last interval) means the process is wedged: liveness fails and the
 * pod is restarted. Generous on purpose: a busy loop only slows answers, and readiness handles that.
 */
export const EVENT_LOOP_DELAY_LIMIT_MS = 5_000;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The p99 event-loop delay since the last check (a histogram sampled by Node itself). */
class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  constructor() {
    this.histogram.enable();
  }
  takeP99Ms(): number {
    const p99 = this.histogram.percentile(99) / 1e6;
    this.histogram.reset();
    return Number.isFinite(p99) ? p99 : 0;
  }
}

/**
 * The checks behind the Kubernetes probes, on @nestjs/terminus.
 * Liveness looks only at the process (a late event loop, a NATS connection that closed for good and never
 * comes back): a PostgreSQL or NATS outage must not restart every pod. Readiness adds the dependencies,
 * each with a timeout, so a pod that cannot serve leaves the load balancer and comes back by itself.
 */
@Injectable()
export class Probes {
  private readonly loop = new EventLoopDelay();
  private nats: NatsConnection[] = [];
  private dataSource?: DataSource;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
  ) {}

  /** What the probes look at; a gateway has no database. */
  watch(dependencies: { nats: NatsConnection[]; dataSource?: DataSource }): this {
    this.nats = dependencies.nats;
    this.dataSource = dependencies.dataSource;
    return this;
  }

  liveness(): Promise<ProbeResult> {
    return this.run([() => this.eventLoop(), () => this.natsNotClosed()]);
  }

  readiness(): Promise<ProbeResult> {
    const checks = [() => this.natsAnswers()];
    if (this.dataSource) checks.unshift(() => this.database(this.dataSource!));
    return this.run(checks);
  }

  private async run(checks: Array<() => Promise<HealthIndicatorResult>>): Promise<ProbeResult> {
    try {
      return { ok: true, body: await this.health.check(checks) };
    } catch (error) {
      if (error instanceof ServiceUnavailableException) return { ok: false, body: error.getResponse() as HealthCheckResult };
      throw error;
    }
  }

  private async eventLoop(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('event_loop');
    const delayMs = Math.round(this.loop.takeP99Ms());
    return delayMs < EVENT_LOOP_DELAY_LIMIT_MS ? indicator.up({ delay_p99_ms: delayMs }) : indicator.down({ delay_p99_ms: delayMs });
  }

  /** Reconnecting is fine (maxReconnectAttempts -1): only a connection that closed is dead for good. */
  private async natsNotClosed(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('nats');
    return this.nats.every((connection) => !connection.isClosed()) ? indicator.up() : indicator.down({ message: 'NATS connection closed' });
  }

  private async natsAnswers(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('nats');
    try {
      if (this.nats.some((connection) => connection.isClosed())) throw new Error('NATS connection closed');
      await withTimeout(Promise.all(this.nats.map((connection) => connection.flush())), PROBE_CHECK_TIMEOUT_MS, 'NATS');
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }

  private async database(dataSource: DataSource): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('database');
    try {
      await withTimeout(dataSource.query('SELECT 1'), PROBE_CHECK_TIMEOUT_MS, 'PostgreSQL');
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }
}

export interface ProbeResult {
  ok: boolean;
  body: HealthCheckResult;
}
