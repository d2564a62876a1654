import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every metric of the platform starts with this (Node's default metrics keep their usual names). */
export const METRICS_PREFIX = 'social_';

/** Latency buckets in seconds, from a cached read to a call at the edge of the 5 s RPC timeout. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How long one scrape-time collector may take before the scrape answers without it. */
const COLLECTOR_TIMEOUT_MS = 1_500;

interface Collector {
  name: string;
  collect: () => Promise<void>;
  /** The run that outlived its scrape's time bound (a query stuck on a lost database), if still going. */
  stillRunning?: Promise<void>;
}

/**
 * One process's Prometheus registry: Node's default metrics, a constant
 * `service` label on every series, get-or-create instruments (two modules
 * asking for the same name share one), and collectors that read state
 * (pool, backlog, lag, queue depth) only when scraped. A collector that fails
 * or is slow never fails the scrape: its gauges keep their last value and
 * `social_metrics_collector_failures_total{collector}` counts it. A collector
 * still running from an earlier scrape is not started again (scrapes must not
 * pile queries up on a database that stopped answering).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly collectors: Collector[] = [];
  private readonly collectorFailures: Counter<'collector'>;

  constructor(
    readonly service: string,
    options: { defaultMetrics?: boolean } = {},
  ) {
    this.registry.setDefaultLabels({ service });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.collectorFailures = this.counter(
      'metrics_collector_failures_total',
      'Scrape-time collectors that failed or timed out (their gauges keep the last value).',
      ['collector'],
    );
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return this.existing<Counter<L>>(name) ?? new Counter({ name: METRICS_PREFIX + name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets = LATENCY_BUCKETS): Histogram<L> {
    return (
      this.existing<Histogram<L>>(name) ??
      new Histogram({ name: METRICS_PREFIX + name, help, labelNames, buckets, registers: [this.registry] })
    );
  }

  gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    return this.existing<Gauge<L>>(name) ?? new Gauge({ name: METRICS_PREFIX + name, help, labelNames, registers: [this.registry] });
  }

  /** Runs `collect` (which sets gauges) before every scrape, bounded in time; `name` labels its failures. */
  onScrape(name: string, collect: () => Promise<void>): void {
    this.collectors.push({ name, collect });
  }

  /** The exposition text; never rejects because of a collector. */
  async scrape(): Promise<string> {
    await Promise.all(this.collectors.map((collector) => this.runCollector(collector)));
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async runCollector(collector: Collector): Promise<void> {
    if (collector.stillRunning) {
      this.collectorFailures.inc({ collector: collector.name });
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), COLLECTOR_TIMEOUT_MS);
    });
    const run = collector.collect();
    try {
      if ((await Promise.race([run, timeout])) === 'timeout') {
        this.collectorFailures.inc({ collector: collector.name });
        collector.stillRunning = run.catch(() => undefined).finally(() => (collector.stillRunning = undefined));
      }
    } catch {
      this.collectorFailures.inc({ collector: collector.name });
    } finally {
      clearTimeout(timer);
    }
  }

  private existing<M>(name: string): M | undefined {
    return this.registry.getSingleMetric(METRICS_PREFIX + name) as M | undefined;
  }
}
