import { describe, expect, it } from '@jest/globals';
import { EXTERNAL, mayConnect, NetworkPolicy, podIn, selectorMatches } from './network-policy.js';

// The evaluator the manifest spec relies on, against the API's rules on small policies.
const policy = (name: string, namespace: string, spec: NetworkPolicy['spec']): NetworkPolicy => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name, namespace },
  spec,
});

const web = { ...podIn('shop', { app: 'web' }), ports: { http: 8080 } };
const db = { ...podIn('shop', { app: 'db' }), ports: { pg: 5432 } };
const elsewhere = podIn('tools', { app: 'web' });

describe('NetworkPolicy evaluator', () => {
  it('allows everything while no policy selects a pod, in either direction', () => {
    expect(mayConnect([], web, db, 5432)).toBe(true);
    const onlyOthers = [policy('others', 'shop', { podSelector: { matchLabels: { app: 'cache' } }, policyTypes: ['Ingress', 'Egress'] })];
    expect(mayConnect(onlyOthers, web, db, 5432)).toBe(true);
  });

  it('isolates a selected pod: only listed peers and ports pass, named ports resolve on the destination', () => {
    const policies = [
      policy('db-ingress', 'shop', {
        podSelector: { matchLabels: { app: 'db' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }], ports: [{ port: 'pg' }] }],
      }),
    ];
    expect(mayConnect(policies, web, db, 5432)).toBe(true);
    expect(mayConnect(policies, web, db, 5433)).toBe(false);
    expect(mayConnect(policies, web, db, 5432, 'UDP')).toBe(false);
    // A podSelector alone means the policy's namespace only.
    expect(mayConnect(policies, elsewhere, db, 5432)).toBe(false);
    expect(mayConnect(policies, EXTERNAL, db, 5432)).toBe(false);
    // Without policyTypes and egress rules, a policy is about ingress only.
    expect(mayConnect(policies, db, EXTERNAL, 443)).toBe(true);
  });

  it('ANDs a namespaceSelector with a podSelector in one peer, ORs separate peers', () => {
    const and = policy('and', 'shop', {
      podSelector: {},
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [
            {
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'tools' } },
              podSelector: { matchLabels: { app: 'scraper' } },
            },
          ],
        },
      ],
    });
    expect(mayConnect([and], elsewhere, web, 8080)).toBe(false);
    expect(mayConnect([and], podIn('tools', { app: 'scraper' }), web, 8080)).toBe(true);
    const or = policy('or', 'shop', {
      podSelector: {},
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [
            { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'tools' } } },
            { podSelector: { matchLabels: { app: 'scraper' } } },
          ],
        },
      ],
    });
    expect(mayConnect([or], elsewhere, web, 8080)).toBe(true);
  });

  it('needs both the source’s egress and the destination’s ingress', () => {
    const egress = policy('web-egress', 'shop', {
      podSelector: { matchLabels: { app: 'web' } },
      policyTypes: ['Egress'],
      egress: [
        {
          ports: [
            { port: 53, protocol: 'UDP' },
            { port: 9000, endPort: 9010 },
          ],
        },
      ],
    });
    expect(mayConnect([egress], web, db, 5432)).toBe(false);
    expect(mayConnect([egress], web, EXTERNAL, 53, 'UDP')).toBe(true);
    expect(mayConnect([egress], web, EXTERNAL, 9005)).toBe(true);
    expect(mayConnect([egress], web, EXTERNAL, 9011)).toBe(false);
    const denyDb = policy('deny-db', 'shop', { podSelector: { matchLabels: { app: 'db' } }, policyTypes: ['Ingress'] });
    expect(mayConnect([denyDb], web, db, 5432)).toBe(false);
  });

  it('matches selector expressions and refuses what it cannot evaluate', () => {
    const labels = { app: 'web', tier: 'front' };
    expect(selectorMatches({ matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, labels)).toBe(false);
    expect(
      selectorMatches({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }] }, labels),
    ).toBe(false);
    const ipBlock = policy('cidr', 'shop', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] });
    expect(() => mayConnect([ipBlock], web, db, 5432)).toThrow('ipBlock');
  });
});
