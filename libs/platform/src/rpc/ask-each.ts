import { RpcClient } from './rpc-client.js';

export interface EachAnswer<T> {
  /** Answers by service, from those that answered in time. */
  answers: Map<string, T>;
  /** Services that did not answer (absent, too slow, or failing): callers say so rather than wait. */
  unanswered: string[];
}

/**
 * Asks several services the same question at once (`pattern(service)`), each
 * with its own deadline, and never fails as a whole: one slow or absent service
 * costs at most `timeoutMs` and is reported as unanswered.
 */
export async function askEach<T>(
  rpc: RpcClient,
  services: readonly string[],
  pattern: (service: string) => string,
  data: object,
  timeoutMs: number,
): Promise<EachAnswer<T>> {
  const settled = await Promise.allSettled(services.map((service) => rpc.send<T>(pattern(service), data, { timeoutMs })));
  const answers = new Map<string, T>();
  const unanswered: string[] = [];
  settled.forEach((result, index) => {
    if (result.status === 'fulfilled') answers.set(services[index], result.value);
    else unanswered.push(services[index]);
  });
  return { answers, unanswered };
}
