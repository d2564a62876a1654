// autocannon ships no types and @types/autocannon is not installed: the part run.ts uses.
declare module 'autocannon' {
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Replace `[<id>]` in each request (URL, headers, body) with a fresh id. */
    idReplacement?: boolean;
  }
  export interface Histogram {
    mean: number;
    p50: number;
    p99: number;
    max: number;
  }
  export interface Result {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
