import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, FormData as UndiciFormData, fetch as undiciFetch } from 'undici';
import { isPublicAddress } from './public-address.js';

/** A name's addresses, as `dns.lookup(name, {all: true})` answers them. */
export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** The system resolver (hosts file, then DNS), every address in the order it gave them. */
export const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, order: 'verbatim' });

/** A destination that is, or resolves to, an address that is not public. Carries no address a user could read back. */
export class DestinationNotPublicError extends Error {
  readonly code = 'EDESTINATIONNOTPUBLIC';

  constructor(readonly host: string) {
    super(`${host} is not on a public address`);
    this.name = 'DestinationNotPublicError';
  }
}

/** Whether an error, or one of its causes (fetch wraps socket errors twice), is a DestinationNotPublicError. */
export function isDestinationNotPublic(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof DestinationNotPublicError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A `lookup` for sockets (net/tls `connect`, http `request`, undici's
 * `connect`) that resolves the name once, refuses the connection when any
 * answer is not public, and hands the socket exactly the addresses it checked.
 * The check and the connection share one resolution, so a name that answers
 * a public address to a check and a private one to the connection (DNS
 * rebinding) has nothing to switch. TLS still verifies and sends the name.
 */
export function publicOnlyLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    resolve(hostname).then(
      (answers) => {
        const addresses = answers.filter((answer) => wanted === undefined || answer.family === wanted);
        if (addresses.length === 0) {
          const error = Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND', hostname });
          return callback(error, '', 0);
        }
        // One private answer refuses the name: which one a connection would use is not ours to choose.
        if (!addresses.every((answer) => isPublicAddress(answer.address))) return callback(new DestinationNotPublicError(hostname), '', 0);
        if (options.all) return (callback as unknown as (error: null, all: typeof addresses) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/**
 * A FormData of Node's own fetch as one undici's fetch encodes: a foreign
 * FormData would be sent as the text "[object FormData]".
 */
function portableForm(form: FormData): UndiciFormData {
  const portable = new UndiciFormData();
  for (const [name, value] of form) portable.append(name, value);
  return portable;
}

/** Who may be reached where: the operator's exceptions to "public addresses only". */
export interface DestinationPolicy {
  /** Origins an operator configured (tests' fake servers, an egress proxy): reached wherever they are. */
  trustedOrigins?: Iterable<string>;
  /** Every destination may be private (servers self-hosted inside the same network). */
  allowPrivate?: boolean;
  /** How names are resolved (tests script it); the system resolver by default. */
  resolve?: Resolve;
}

/**
 * Outgoing calls to servers users name (a Mastodon instance, a Bluesky PDS,
 * media URLs): a destination must be on a public address, judged at connect
 * time on the very address the socket connects to. An address literal in the
 * URL is judged before anything is sent (sockets do not look those up).
 * `fetch` is undici's, over a connection pool whose sockets only ever reach
 * checked addresses; `lookupFor` gives the same rule to `http.request`.
 */
export class PublicDestinations {
  private readonly trusted: Set<string>;
  private readonly allowPrivate: boolean;
  private readonly lookup: LookupFunction;
  private readonly pinned: Agent;
  private readonly open: Agent;

  constructor(policy: DestinationPolicy = {}) {
    this.trusted = new Set(policy.trustedOrigins ?? []);
    this.allowPrivate = policy.allowPrivate ?? false;
    this.lookup = publicOnlyLookup(policy.resolve);
    this.pinned = new Agent({ connect: { lookup: this.lookup } });
    this.open = new Agent();
  }

  /**
   * The lookup a connection to `url` must use, or undefined when the operator
   * lets it go anywhere. Throws DestinationNotPublicError for a URL naming a
   * private address literally.
   */
  lookupFor(url: URL): LookupFunction | undefined {
    if (this.allowPrivate || this.trusted.has(url.origin)) return undefined;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !isPublicAddress(host)) throw new DestinationNotPublicError(url.hostname);
    return this.lookup;
  }

  /**
   * `fetch` under the policy. A refusal fails the call before anything is
   * sent, as a TypeError whose cause is a DestinationNotPublicError (as a
   * refused connection's cause is its socket error), or that error itself
   * for a literal address. Takes a URL or a string, not a Request.
   */
  readonly fetch: typeof fetch = (async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const dispatcher = this.lookupFor(url) ? this.pinned : this.open;
    const body = init.body instanceof FormData ? portableForm(init.body) : init.body;
    return undiciFetch(url, { ...init, body, dispatcher } as Parameters<typeof undiciFetch>[1]);
  }) as unknown as typeof fetch;

  /** Drops every connection, those still connecting included. */
  async close(): Promise<void> {
    await Promise.all([this.pinned.destroy(), this.open.destroy()]);
  }
}
