/**
 * Per-app NATS permissions, generated from the message patterns in
 * libs/contracts (docs/security.md, "The bus"): each app may publish only the
 * request subjects its code names (its own source plus libs/platform, which
 * every app runs) and the events of its own namespace, and subscribe only to
 * the subjects it serves and the events it names. Replies go back through
 * `allow_responses`; JetStream (event stream, object store, key-value buckets)
 * goes through its API subjects.
 */
import * as contracts from '@social/contracts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const NATS_APPS = [...contracts.BACKEND_SERVICES, 'gateway'] as const;
export type NatsApp = (typeof NATS_APPS)[number];

export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
}

/** Event namespaces owned by a service whose name differs (`events.tenancy.*`, `durable.tenancy.*` come from accounts). */
const NAMESPACE_OWNERS: Record<string, NatsApp> = { tenancy: 'accounts' };

/**
 * JetStream's API, acknowledgements and flow control, object-store and key-value
 * subjects: used by every app (outbox, durable consumers, media bytes, rate counters).
 */
const JETSTREAM_PUBLISH = ['$JS.API.>', '$JS.ACK.>', '$JS.FC.>', '$O.>', '$KV.>'];
const JETSTREAM_SUBSCRIBE = ['$O.>', '$KV.>'];
/** Replies to the app's own requests arrive on its inbox. */
const INBOX = '_INBOX.>';

/** Pattern builders called with each service's name (health, usage, pending work): a caller may ask every service. */
const PER_SERVICE_BUILDERS: Record<string, (service: string) => string> = {
  healthPattern: contracts.healthPattern,
  usageTotalsPattern: contracts.usageTotalsPattern,
  usageForUsersPattern: contracts.usageForUsersPattern,
  pendingWorkPattern: contracts.pendingWorkPattern,
};

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) files.push(path);
  }
  return files;
}

/** Subjects a body of source names: `XxxPatterns.key`, `XxxOperations.key`, `*_SUBJECT` constants, per-service builders. */
export function subjectsNamedIn(source: string): { requests: Set<string>; events: Set<string> } {
  const requests = new Set<string>();
  const events = new Set<string>();
  const exported = contracts as unknown as Record<string, unknown>;
  for (const match of source.matchAll(/\b([A-Z]\w*Patterns)\.(\w+)/g)) {
    const group = exported[match[1]] as Record<string, unknown> | undefined;
    const subject = group?.[match[2]];
    if (typeof subject === 'string') requests.add(subject);
  }
  for (const match of source.matchAll(/\b([A-Z]\w*Operations)\.(\w+)/g)) {
    const group = exported[match[1]] as Record<string, { subject?: unknown }> | undefined;
    const subject = group?.[match[2]]?.subject;
    if (typeof subject === 'string') requests.add(subject);
  }
  for (const match of source.matchAll(/\b([A-Z][A-Z0-9_]*_SUBJECT)\b/g)) {
    const subject = exported[match[1]];
    if (typeof subject === 'string') events.add(subject);
  }
  for (const [builder, build] of Object.entries(PER_SERVICE_BUILDERS)) {
    if (new RegExp(`\\b${builder}\\(`).test(source)) for (const service of contracts.BACKEND_SERVICES) requests.add(build(service));
  }
  return { requests, events };
}

const ownerOf = (subject: string): string => {
  const namespace = subject.split('.')[1] ?? '';
  return NAMESPACE_OWNERS[namespace] ?? namespace;
};

/** Every app's permissions, from the sources under `repoRoot`. */
export function generatePermissions(repoRoot: string): Record<NatsApp, NatsPermissions> {
  const read = (dir: string) =>
    sourceFiles(join(repoRoot, dir))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
  const shared = subjectsNamedIn(read('libs/platform/src'));
  const result = {} as Record<NatsApp, NatsPermissions>;
  for (const app of NATS_APPS) {
    const own = subjectsNamedIn(read(`apps/${app}/src`));
    const requests = new Set([...shared.requests, ...own.requests]);
    const events = new Set([...shared.events, ...own.events]);
    const publish = new Set<string>(JETSTREAM_PUBLISH);
    const subscribe = new Set<string>([INBOX, ...JETSTREAM_SUBSCRIBE]);
    for (const subject of requests) publish.add(subject);
    for (const subject of events) {
      // Only the owner of an event namespace publishes there; core events (`events.*`) are heard by subscribing,
      // durable ones (`durable.*`) through JetStream's API.
      if (ownerOf(subject) === app) publish.add(subject);
      if (subject.startsWith('events.')) subscribe.add(subject);
    }
    // A service serves its own namespace (Nest subscribes to each of its patterns in its queue group).
    if (app !== 'gateway') subscribe.add(`${app}.>`);
    result[app] = { publish: [...publish].sort(), subscribe: [...subscribe].sort() };
  }
  return result;
}

/**
 * The `authorization` block of nats-server's configuration: one user per app,
 * identified by its nkey's public key (the seed stays with the app).
 */
export function authorizationConfig(permissions: Record<NatsApp, NatsPermissions>, publicKeys: Record<NatsApp, string>): string {
  const list = (subjects: string[]) => `[${subjects.map((subject) => JSON.stringify(subject)).join(', ')}]`;
  const users = NATS_APPS.map(
    (app) =>
      `    # ${app}\n    { nkey: ${publicKeys[app]}, permissions: { publish: { allow: ${list(permissions[app].publish)} }, ` +
      `subscribe: { allow: ${list(permissions[app].subscribe)} }, allow_responses: true } }`,
  );
  return ['authorization {', '  users: [', users.join(',\n'), '  ]', '}', ''].join('\n');
}
