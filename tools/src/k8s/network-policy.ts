/**
 * A small evaluator of Kubernetes NetworkPolicies (networking.k8s.io/v1), so the
 * rendered manifests can answer "may A reach B on this port" offline. It follows
 * the API's semantics: a pod is isolated in a direction once any policy of its
 * namespace selects it for that direction, allowed traffic is the union of those
 * policies' rules, and a connection needs the source's egress and the
 * destination's ingress. ipBlock peers are not supported (k8s/ uses none).
 */
import type { K8sObject } from './render-kustomize.js';

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

interface PolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface PolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}
interface PolicyRule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: PolicyPort[];
}
export type NetworkPolicy = K8sObject & {
  spec: { podSelector: LabelSelector; policyTypes?: Array<'Ingress' | 'Egress'>; ingress?: PolicyRule[]; egress?: PolicyRule[] };
};

/** A pod: where it runs, its labels, and its named container ports. */
export interface Pod {
  namespace: string;
  namespaceLabels: Record<string, string>;
  labels: Record<string, string>;
  ports: Record<string, number>;
}
/** Anything outside the cluster (a client on the internet, a managed database, an SMTP server). */
export const EXTERNAL = { external: true } as const;
export type Endpoint = Pod | typeof EXTERNAL;

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

const isPod = (endpoint: Endpoint): endpoint is Pod => !('external' in endpoint);

export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
      default:
        throw new Error(`unknown selector operator ${String(operator)}`);
    }
  });
  return byLabels && byExpressions;
}

function policyTypes(policy: NetworkPolicy): Array<'Ingress' | 'Egress'> {
  return policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

function peerMatches(policy: NetworkPolicy, peer: PolicyPeer, other: Endpoint): boolean {
  if (peer.ipBlock) throw new Error(`${policy.metadata.name}: ipBlock peers are not supported by this evaluator`);
  if (!isPod(other)) return false;
  const namespaceOk = peer.namespaceSelector
    ? selectorMatches(peer.namespaceSelector, other.namespaceLabels)
    : other.namespace === policy.metadata.namespace;
  return namespaceOk && selectorMatches(peer.podSelector, other.labels);
}

/** A named port means the destination pod's container port of that name. */
function portMatches(rulePort: PolicyPort, destination: Endpoint, port: number, protocol: Protocol): boolean {
  if ((rulePort.protocol ?? 'TCP') !== protocol) return false;
  if (rulePort.port === undefined) return true;
  if (typeof rulePort.port === 'string') return isPod(destination) && destination.ports[rulePort.port] === port;
  return rulePort.endPort === undefined ? rulePort.port === port : port >= rulePort.port && port <= rulePort.endPort;
}

function ruleMatches(
  policy: NetworkPolicy,
  rule: PolicyRule,
  peers: PolicyPeer[] | undefined,
  other: Endpoint,
  destination: Endpoint,
  port: number,
  protocol: Protocol,
): boolean {
  const peerOk = !peers || peers.length === 0 || peers.some((peer) => peerMatches(policy, peer, other));
  const portOk = !rule.ports || rule.ports.length === 0 || rule.ports.some((p) => portMatches(p, destination, port, protocol));
  return peerOk && portOk;
}

/** Whether `pod`'s policies let traffic through in `direction` with `other` (the far end). */
function allowedAt(
  policies: NetworkPolicy[],
  pod: Pod,
  direction: 'Ingress' | 'Egress',
  other: Endpoint,
  port: number,
  protocol: Protocol,
): boolean {
  const selecting = policies.filter(
    (policy) =>
      policy.metadata.namespace === pod.namespace &&
      selectorMatches(policy.spec.podSelector, pod.labels) &&
      policyTypes(policy).includes(direction),
  );
  if (selecting.length === 0) return true;
  const destination = direction === 'Ingress' ? pod : other;
  return selecting.some((policy) =>
    (direction === 'Ingress' ? (policy.spec.ingress ?? []) : (policy.spec.egress ?? [])).some((rule) =>
      ruleMatches(policy, rule, direction === 'Ingress' ? rule.from : rule.to, other, destination, port, protocol),
    ),
  );
}

/** May `from` open a connection to `to` on `port`? Both ends' policies must allow it. */
export function mayConnect(policies: NetworkPolicy[], from: Endpoint, to: Endpoint, port: number, protocol: Protocol = 'TCP'): boolean {
  const egress = !isPod(from) || allowedAt(policies, from, 'Egress', to, port, protocol);
  const ingress = !isPod(to) || allowedAt(policies, to, 'Ingress', from, port, protocol);
  return egress && ingress;
}

/** A pod of a rendered workload (Deployment, StatefulSet), with its namespace's automatic name label. */
export function podOf(workload: K8sObject): Pod {
  const template = (
    workload.spec as {
      template: {
        metadata: { labels: Record<string, string> };
        spec: { containers: Array<{ ports?: Array<{ name?: string; containerPort: number }> }> };
      };
    }
  ).template;
  const namespace = workload.metadata.namespace ?? 'default';
  const ports = Object.fromEntries(
    template.spec.containers
      .flatMap((c) => c.ports ?? [])
      .filter((p) => p.name)
      .map((p) => [p.name!, p.containerPort]),
  );
  return { namespace, namespaceLabels: { 'kubernetes.io/metadata.name': namespace }, labels: template.metadata.labels, ports };
}

/** A pod elsewhere in the cluster, e.g. Prometheus in `monitoring` or an ingress controller. */
export function podIn(namespace: string, labels: Record<string, string> = {}): Pod {
  return { namespace, namespaceLabels: { 'kubernetes.io/metadata.name': namespace }, labels, ports: {} };
}
