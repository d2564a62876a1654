import { pick, text } from '../oauth/oauth-network.js';
import type { ProviderAnswer } from '../provider-http.js';
import { DeliveryError } from '../social-provider.js';
import type { ProviderAccount } from '../social-provider.js';
import type { GraphClient } from './graph-client.js';

/** How often and how long a container is asked whether it is ready to publish. */
export interface ContainerPolling {
  /** The wait before the second look (the first is at once: a text container is ready at once), doubling up to `maxWaitMs`. */
  firstWaitMs: number;
  maxWaitMs: number;
  /** Past this, a container still IN_PROGRESS is given up for now (retryable `media_processing_timeout`). */
  limitMs: number;
}

/** Where a network's containers live and how their status reads (Threads and Instagram name them differently). */
export interface ContainerEdges {
  /** POST /{user-id}/{create} makes a container: Threads `threads`, Instagram `media`. */
  create: string;
  /** POST /{user-id}/{publish} with `creation_id` makes the post: Threads `threads_publish`, Instagram `media_publish`. */
  publish: string;
  /** The container field naming its state (IN_PROGRESS, FINISHED, ERROR, EXPIRED): Threads `status`, Instagram `status_code`. */
  statusField: string;
  /** The fields asked while polling: the state and where the network explains an ERROR. */
  statusFields: string;
  /** Runs one call of the delivery, its failure a DeliveryError by the network's own mapping (`creates`: it may make the post). */
  deliveryCall: <T>(creates: boolean, call: () => Promise<T>) => Promise<T>;
}

/** A container's processing ended: FINISHED, or ERROR with the answer that says why (each network reads its own fields). */
export type ContainerOutcome = { state: 'FINISHED' } | { state: 'ERROR'; answer: ProviderAnswer };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Meta's two-step publishing (Threads, Instagram): a media container, visible to nobody, polled until FINISHED, then
 * published, the one call that creates the post. What an ERROR means is left to the network.
 */
export class GraphContainers {
  constructor(
    private readonly graph: GraphClient,
    private readonly edges: ContainerEdges,
    readonly polling: ContainerPolling,
  ) {}

  /** POST /{user-id}/{create}: a container, which nobody sees until it is published (a failure here created nothing). Its id. */
  async create(account: ProviderAccount, parameters: Record<string, string>): Promise<string> {
    const answer = await this.edges.deliveryCall(false, () =>
      this.graph.call(account, 'POST', `/${userId(account)}/${this.edges.create}`, parameters),
    );
    const id = text(pick(answer.body, 'id'));
    if (!id) {
      throw new DeliveryError({
        outcome: 'retryable',
        code: 'provider_error',
        message: `${this.graph.platform} answered the container without its id.`,
        httpStatus: answer.status,
      });
    }
    return id;
  }

  /**
   * Asks GET /{container-id}?fields=… at once, then with doubling waits until `deadline`, until FINISHED or ERROR.
   * EXPIRED (not published within 24 hours) and a container still processing at the deadline are tried again later,
   * with new containers (retryable).
   */
  async untilProcessed(account: ProviderAccount, containerId: string, deadline: number): Promise<ContainerOutcome> {
    const platform = this.graph.platform;
    for (let wait = this.polling.firstWaitMs; ; wait = Math.min(wait * 2, this.polling.maxWaitMs)) {
      const answer = await this.edges.deliveryCall(false, () =>
        this.graph.call(account, 'GET', `/${encodeURIComponent(containerId)}`, { fields: this.edges.statusFields }),
      );
      const status = text(pick(answer.body, this.edges.statusField));
      if (status === 'FINISHED') return { state: 'FINISHED' };
      if (status === 'ERROR') return { state: 'ERROR', answer };
      if (status === 'EXPIRED') {
        throw new DeliveryError({
          outcome: 'retryable',
          code: 'container_expired',
          message: `${platform} let the media container expire; trying again with a new one.`,
          httpStatus: answer.status,
        });
      }
      if (Date.now() + wait > deadline) {
        throw new DeliveryError({
          outcome: 'retryable',
          code: 'media_processing_timeout',
          message: `${platform} was still processing the media; trying again later.`,
          httpStatus: answer.status,
        });
      }
      await sleep(wait);
    }
  }

  /** POST /{user-id}/{publish} `creation_id`: the post made from a ready container. Its id; an answer without one is ambiguous. */
  async publish(account: ProviderAccount, containerId: string): Promise<string> {
    const answer = await this.edges.deliveryCall(true, () =>
      this.graph.call(account, 'POST', `/${userId(account)}/${this.edges.publish}`, { creation_id: containerId }),
    );
    const externalId = text(pick(answer.body, 'id'));
    if (!externalId) {
      throw new DeliveryError({
        outcome: 'ambiguous',
        code: 'provider_answer_unreadable',
        message: `${this.graph.platform} answered the publish without its id.`,
        httpStatus: answer.status,
      });
    }
    return externalId;
  }
}

/** The account's Graph user id, as a path segment. */
export const userId = (account: ProviderAccount) => encodeURIComponent(account.externalId);
