/**
 * Checks of k8s/ (and the env names in docker/compose.yaml): each overlay is
 * rendered by `kubectl kustomize` where installed (else by our offline loader),
 * validated against the Kubernetes OpenAPI schemas from `kubernetes-models`
 * (and prometheus-operator's), and held to the rules the apps rely on. When
 * kubectl is installed, the offline loader's output must match it.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { EXTERNAL, mayConnect, NetworkPolicy, Pod, podIn, podOf, Protocol, selectorMatches } from './network-policy.js';
import { K8sObject, renderKustomization, renderOverlay, splitImage } from './render-kustomize.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const overlays = ['dev', 'production'];
const IMAGE_PREFIX = 'social-platform/';

/** Contract §9: the environment variable names shared by all apps, docker/ and k8s/. */
const CONTRACT_ENV = [
  'PORT',
  'PUBLIC_BASE_URL',
  'PUBLIC_APP_URL',
  'DATABASE_URL',
  'NATS_URL',
  'SECRETS_KEY',
  'JWT_PRIVATE_KEY',
  'JWT_PUBLIC_KEY',
  'SMTP_URL',
  'SMTP_FROM',
  'AI_BASE_URL',
  'AI_API_KEY',
  'AI_MODEL',
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'WEBAUTHN_RP_ID',
  'WEBAUTHN_ORIGIN',
  'LOG_LEVEL',
];

/**
 * Apps the platform runs: a directory under apps/ with a src/main.ts, except clients of the API that people run
 * beside their own tools (Nx tag `type:client`, e.g. apps/mcp), which are not deployed with it.
 */
const isClient = (app: string) =>
  JSON.parse(readFileSync(join(root, 'apps', app, 'package.json'), 'utf8')).nx?.tags?.includes('type:client') === true;
const runnableApps = readdirSync(join(root, 'apps')).filter((app) => existsSync(join(root, 'apps', app, 'src/main.ts')) && !isClient(app));

/**
 * Names the apps' config.ts files declare (`NAME: setting.x(...)`), read from
 * source so a new app setting is allowed without editing this test.
 */
function declaredSettings(): string[] {
  const files = [
    join(root, 'libs/platform/src/config/config.ts'),
    ...readdirSync(join(root, 'apps')).map((app) => join(root, 'apps', app, 'src/config.ts')),
  ].filter((file) => existsSync(file));
  return files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/^\s*([A-Z][A-Z0-9_]*):\s*setting\./gm)].map((m) => m[1]));
}
/** The web console's container reads one setting of its own (docker/Dockerfile.web): the gateway's origin. */
const CONSOLE_ENV = ['API_ORIGIN'];
const allowedEnv = new Set([...CONTRACT_ENV, ...declaredSettings(), ...CONSOLE_ENV]);

interface Probe {
  httpGet?: { path?: string; port: number | string };
  timeoutSeconds?: number;
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface PodSpec {
  securityContext?: { runAsNonRoot?: boolean };
  topologySpreadConstraints?: Array<{
    topologyKey: string;
    whenUnsatisfiable: string;
    labelSelector?: { matchLabels?: Record<string, string> };
  }>;
  terminationGracePeriodSeconds?: number;
  containers: Container[];
  initContainers?: Container[];
}
type Workload = K8sObject & {
  spec: {
    replicas?: number;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
};
type Selecting = K8sObject & { spec: { selector: { matchLabels?: Record<string, string> } } };
type Service = K8sObject & {
  spec: { selector: Record<string, string>; ports: Array<{ name?: string; port: number; targetPort?: number | string }> };
};
type Autoscaler = K8sObject & {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: Array<{ resource?: { name: string } }>;
  };
};
type ServiceMonitor = K8sObject & {
  spec: { selector: { matchLabels: Record<string, string> }; endpoints: Array<{ port?: string; path?: string }> };
};

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const deploymentsOf = (objects: K8sObject[]) => byKind(objects, 'Deployment') as Workload[];
const workloadsOf = (objects: K8sObject[]) => [...deploymentsOf(objects), ...(byKind(objects, 'StatefulSet') as Workload[])];
const containersOf = (objects: K8sObject[]) => deploymentsOf(objects).flatMap((d) => d.spec.template.spec.containers);
/** Every container of every workload, init containers included. */
const allContainersOf = (objects: K8sObject[]) =>
  workloadsOf(objects).flatMap((w) =>
    [...(w.spec.template.spec.initContainers ?? []), ...w.spec.template.spec.containers].map((c) => ({ workload: w.metadata.name, ...c })),
  );
const idOf = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const envValue = (c: Container, name: string) => c.env?.find((e) => e.name === name);
/** Services boot through runService and own a database schema; the gateway does neither. */
const usesDatabase = (d: Workload) => d.spec.template.spec.containers.some((c) => envValue(c, 'DATABASE_URL'));
const METRICS_PORT = 9464;

/**
 * Finds the model class by apiVersion and kind, e.g. kubernetes-models/apps/v1/Deployment,
 * or @kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor.
 */
async function validateSchema(object: K8sObject): Promise<void> {
  const models = object.apiVersion.startsWith('monitoring.coreos.com/') ? '@kubernetes-models/prometheus-operator' : 'kubernetes-models';
  const module = (await import(`${models}/${object.apiVersion}/${object.kind}`)) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  const Model = module[object.kind];
  try {
    new Model(object).validate();
  } catch (error) {
    throw new Error(`${idOf(object)}: ${(error as Error).message}`);
  }
}

function kubectlAvailable(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.each(overlays)('k8s overlay %s', (overlay) => {
  const dir = join(root, 'k8s/overlays', overlay);
  const { objects, localConfig } = renderOverlay(dir);
  const secretKeys = new Set(
    [...objects, ...localConfig]
      .filter((o) => o.kind === 'Secret')
      .flatMap((o) => Object.keys({ ...(o.data as object), ...(o.stringData as object) })),
  );

  it('renders objects that match the Kubernetes schemas', async () => {
    expect(deploymentsOf(objects).length).toBeGreaterThan(0);
    for (const object of [...objects, ...localConfig]) await validateSchema(object);
  });

  it('has a Deployment, with its own image, for every app under apps/', () => {
    const deployments = new Map(deploymentsOf(objects).map((d) => [d.metadata.name, d]));
    for (const app of runnableApps) {
      const images = deployments.get(app)?.spec.template.spec.containers.map((c) => splitImage(c.image).name);
      expect({ app, images }).toEqual({ app, images: [`${IMAGE_PREFIX}${app}`] });
    }
  });

  it('pins a tag on every image (an overlay images: entry per app)', () => {
    for (const { image } of allContainersOf(objects))
      expect({ image, tag: splitImage(image).tag }).toEqual({ image, tag: expect.any(String) });
  });

  it('probes liveness and readiness on the port the app listens on', () => {
    for (const c of containersOf(objects)) {
      const listens = (c.env ?? []).filter((e) => e.name === 'PORT' || e.name === 'HEALTH_PORT').map((e) => Number(e.value));
      for (const probe of [c.livenessProbe, c.readinessProbe]) {
        expect({ container: c.name, probe: probe?.httpGet?.path }).toEqual({ container: c.name, probe: expect.any(String) });
        const port = probe!.httpGet!.port;
        const number = typeof port === 'number' ? port : c.ports?.find((p) => p.name === port)?.containerPort;
        expect({ container: c.name, port: number }).toEqual({ container: c.name, port: expect.any(Number) });
        expect(listens).toContain(number);
      }
      // A probe without a timeout waits 1 s by default, and one that hangs (a PostgreSQL outage) must not count as slow success.
      for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe]) {
        expect({ container: c.name, timeoutSeconds: probe?.timeoutSeconds }).toEqual({
          container: c.name,
          timeoutSeconds: expect.any(Number),
        });
      }
    }
  });

  it(
    'keeps liveness on the process only: services probe /live (readiness /ready), ' +
      'the gateway /health (readiness /health/ready, NATS only)',
    () => {
      for (const d of deploymentsOf(objects)) {
        const [c] = d.spec.template.spec.containers;
        const paths = { live: c.livenessProbe?.httpGet?.path, ready: c.readinessProbe?.httpGet?.path };
        expect({ app: d.metadata.name, ...paths }).toEqual(
          d.metadata.name === 'gateway'
            ? { app: 'gateway', live: '/health', ready: '/health/ready' }
            : { app: d.metadata.name, live: '/live', ready: '/ready' },
        );
      }
    },
  );

  it('spreads every Deployment’s replicas over zones and nodes', () => {
    for (const d of deploymentsOf(objects)) {
      const spread = d.spec.template.spec.topologySpreadConstraints ?? [];
      expect({ app: d.metadata.name, keys: spread.map((t) => t.topologyKey).sort() }).toEqual({
        app: d.metadata.name,
        keys: ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'],
      });
      for (const t of spread)
        expect(selectorMatches({ matchLabels: t.labelSelector?.matchLabels ?? {} }, d.spec.template.metadata.labels)).toBe(true);
    }
  });

  it('routes the API host to the gateway Service’s http port and the console host to the web Service’s, and nothing else', () => {
    type Ingress = K8sObject & {
      spec: {
        rules: Array<{ host?: string; http: { paths: Array<{ backend: { service: { name: string; port: { name?: string } } } }> } }>;
      };
    };
    const ingresses = byKind(objects, 'Ingress') as Ingress[];
    expect(ingresses.map((i) => i.metadata.name).sort()).toEqual(['gateway', 'web']);
    const services = byKind(objects, 'Service') as Service[];
    for (const ingress of ingresses) {
      const target = services.find((svc) => svc.metadata.name === ingress.metadata.name)!;
      for (const backend of ingress.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service))) {
        expect(backend.name).toBe(ingress.metadata.name);
        expect(target.spec.ports.map((p) => p.name)).toContain(backend.port.name);
      }
    }
    // The console calls the API from its own origin: the gateway allows it, and links point people there.
    const [console] = ingresses.filter((i) => i.metadata.name === 'web').map((i) => `https://${i.spec.rules[0].host}`);
    const config = byKind(objects, 'ConfigMap').find((o) => o.metadata.name === 'platform-config')!.data as Record<string, string>;
    expect({ cors: config.CORS_ALLOWED_ORIGINS, app: config.PUBLIC_APP_URL }).toEqual({ cors: console, app: console });
  });

  it('runs the web console as the other pods, with a disruption budget, and only its page reachable', () => {
    expect(consoles.map((d) => d.metadata.name)).toEqual(['web']);
    const budgets = (byKind(objects, 'PodDisruptionBudget') as Selecting[]).filter((b) =>
      selectorMatches({ matchLabels: b.spec.selector.matchLabels ?? {} }, consoles[0].spec.template.metadata.labels),
    );
    expect(budgets.map((b) => b.metadata.name)).toEqual(['web']);
    const pod = podOf(consoles[0]);
    const policies = byKind(objects, 'NetworkPolicy') as NetworkPolicy[];
    const open = [8080, METRICS_PORT, 22, 80, 443].filter((port) => mayConnect(policies, EXTERNAL, pod, port));
    expect(open).toEqual([8080]);
  });

  it('alerts on outbox backlog, dead letters, consumer lag, late renditions and the 5xx rate, on metrics the apps export', () => {
    type Rule = K8sObject & { spec: { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> } };
    const rules = (byKind(objects, 'PrometheusRule') as Rule[]).flatMap((r) => r.spec.groups.flatMap((g) => g.rules));
    expect(rules.map((r) => r.alert).sort()).toEqual([
      'DeadLetteredEvents',
      'DurableConsumerLag',
      'GatewayHighErrorRate',
      'LateRenditions',
      'OutboxBacklog',
    ]);
    const exported = exportedMetrics();
    for (const rule of rules) {
      const names = [...rule.expr.matchAll(/\bsocial_([a-z_]+)/g)].map((m) => m[1]);
      expect({ alert: rule.alert, unknown: names.filter((name) => !exported.has(name)) }).toEqual({ alert: rule.alert, unknown: [] });
    }
  });

  it('runs every pod as non-root with a read-only root and no capabilities (init containers too)', () => {
    for (const w of workloadsOf(objects))
      expect({ workload: w.metadata.name, nonRoot: w.spec.template.spec.securityContext?.runAsNonRoot }).toEqual({
        workload: w.metadata.name,
        nonRoot: true,
      });
    for (const c of allContainersOf(objects)) {
      expect({ c: `${c.workload}/${c.name}`, ...c.securityContext }).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
    }
  });

  it('gives every container (init containers too) CPU and memory requests and limits', () => {
    for (const c of allContainersOf(objects)) {
      const amounts = {
        requests: { cpu: expect.any(String), memory: expect.any(String) },
        limits: { cpu: expect.any(String), memory: expect.any(String) },
      };
      expect({ c: `${c.workload}/${c.name}`, ...c.resources }).toEqual({ c: `${c.workload}/${c.name}`, ...amounts });
    }
  });

  it('lets pods stop gracefully: 30 s or more, and the gateway leaves the endpoints before it stops accepting', () => {
    for (const d of deploymentsOf(objects)) expect(d.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
    const gateway = deploymentsOf(objects).find((d) => d.metadata.name === 'gateway')!;
    expect(gateway.spec.template.spec.containers[0].lifecycle?.preStop?.exec?.command).toEqual(['sleep', '5']);
  });

  it('uses only environment variable names from docs/decisions.md or the apps’ settings', () => {
    // ConfigMaps loaded as environment (the dev NATS configuration is a mounted file).
    const asEnv = new Set(containersOf(objects).flatMap((c) => (c.envFrom ?? []).flatMap((source) => source.configMapRef?.name ?? [])));
    const configMapKeys = byKind(objects, 'ConfigMap')
      .filter((o) => asEnv.has(o.metadata.name))
      .flatMap((o) => Object.keys((o.data as object) ?? {}));
    const explicit = allContainersOf(objects).flatMap((c) => (c.env ?? []).map((e) => e.name));
    // Secret keys reach the apps only through secretKeyRef, under an env name checked above (e.g. ACCOUNTS_DATABASE_URL → DATABASE_URL).
    const unknown = [...configMapKeys, ...explicit].filter((name) => !allowedEnv.has(name));
    expect(unknown).toEqual([]);
  });

  it('points every secretKeyRef at a key of the Secret and every envFrom at an existing object', () => {
    const names = new Set([...objects, ...localConfig].map((o) => `${o.kind}/${o.metadata.name}`));
    for (const c of allContainersOf(objects)) {
      for (const { valueFrom } of c.env ?? []) {
        const ref = valueFrom?.secretKeyRef;
        if (!ref) continue;
        expect(names).toContain(`Secret/${ref.name}`);
        expect(secretKeys).toContain(ref.key);
      }
      for (const source of c.envFrom ?? []) {
        if (source.configMapRef) expect(names).toContain(`ConfigMap/${source.configMapRef.name}`);
        if (source.secretRef) expect(names).toContain(`Secret/${source.secretRef.name}`);
      }
    }
  });

  /** The web console (base/web.yaml) is static files: no metrics, autoscaler, database or NATS; checked on its own. */
  const isConsole = (d: Workload) => d.spec.template.metadata.labels['app.kubernetes.io/component'] === 'console';
  const apps = deploymentsOf(objects).filter((d) => !isConsole(d));
  const consoles = deploymentsOf(objects).filter(isConsole);
  const selects = (selector: Record<string, string> | undefined, d: Workload) =>
    selectorMatches({ matchLabels: selector ?? {} }, d.spec.template.metadata.labels);

  it('gives every app exactly one PodDisruptionBudget, which lets a drain take one pod', () => {
    for (const d of apps) {
      const budgets = (byKind(objects, 'PodDisruptionBudget') as Array<Selecting & { spec: { maxUnavailable?: number } }>).filter((b) =>
        selects(b.spec.selector.matchLabels, d),
      );
      expect({ app: d.metadata.name, budgets: budgets.map((b) => b.spec.maxUnavailable) }).toEqual({ app: d.metadata.name, budgets: [1] });
    }
  });

  it('gives every app exactly one CPU autoscaler on its Deployment, starting at the overlay’s replicas', () => {
    for (const d of apps) {
      const scalers = (byKind(objects, 'HorizontalPodAutoscaler') as Autoscaler[]).filter(
        (h) => h.spec.scaleTargetRef.name === d.metadata.name,
      );
      expect({ app: d.metadata.name, count: scalers.length }).toEqual({ app: d.metadata.name, count: 1 });
      const [{ spec }] = scalers;
      expect(spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name });
      expect({ app: d.metadata.name, min: spec.minReplicas }).toEqual({ app: d.metadata.name, min: d.spec.replicas });
      expect(spec.maxReplicas).toBeGreaterThan(spec.minReplicas!);
      expect(spec.metrics?.map((m) => m.resource?.name)).toEqual(['cpu']);
    }
    expect(byKind(objects, 'HorizontalPodAutoscaler')).toHaveLength(apps.length);
  });

  it('exposes metrics on 9464 in every app and scrapes them with one ServiceMonitor through a Service on port `metrics`', () => {
    const services = byKind(objects, 'Service') as Service[];
    const monitors = byKind(objects, 'ServiceMonitor') as ServiceMonitor[];
    for (const d of apps) {
      const [container] = d.spec.template.spec.containers;
      expect({ app: d.metadata.name, env: envValue(container, 'METRICS_PORT')?.value }).toEqual({
        app: d.metadata.name,
        env: String(METRICS_PORT),
      });
      expect(container.ports).toContainEqual({ name: 'metrics', containerPort: METRICS_PORT });
      // Monitors whose Services select this app's pods and name a `metrics` port reaching the container's.
      const scraping = monitors.filter((m) =>
        services.some(
          (svc) =>
            selectorMatches(m.spec.selector, svc.metadata.labels ?? {}) &&
            selects(svc.spec.selector, d) &&
            svc.spec.ports.some((p) => p.name === 'metrics' && (p.targetPort === 'metrics' || p.targetPort === METRICS_PORT)) &&
            m.spec.endpoints.some((e) => e.port === 'metrics' && e.path === '/metrics'),
        ),
      );
      expect({ app: d.metadata.name, monitors: scraping.map((m) => m.metadata.name) }).toEqual({
        app: d.metadata.name,
        monitors: [d.metadata.name],
      });
    }
    expect(monitors).toHaveLength(apps.length);
  });

  it('migrates every service in an init container (same image, `migrate`, the owner role’s DATABASE_URL only), and not the gateway', () => {
    for (const d of apps) {
      const [main] = d.spec.template.spec.containers;
      const init = d.spec.template.spec.initContainers ?? [];
      if (!usesDatabase(d)) {
        expect({ app: d.metadata.name, init }).toEqual({ app: d.metadata.name, init: [] });
        continue;
      }
      expect(init.map((c) => c.name)).toEqual(['migrate']);
      const [migrate] = init;
      expect({ app: d.metadata.name, image: migrate.image, command: migrate.command }).toEqual({
        app: d.metadata.name,
        image: main.image,
        command: ['node', `apps/${d.metadata.name}/dist/main.js`, 'migrate'],
      });
      // One PostgreSQL role per service: the owner migrates, the service runs with its DML-only role.
      const secretKey = (c: Container) => envValue(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef?.key;
      const prefix = d.metadata.name.toUpperCase();
      expect(migrate.env?.map((e) => e.name)).toEqual(['DATABASE_URL']);
      expect({ app: d.metadata.name, migrate: secretKey(migrate), main: secretKey(main) }).toEqual({
        app: d.metadata.name,
        migrate: `${prefix}_DATABASE_OWNER_URL`,
        main: `${prefix}_DATABASE_URL`,
      });
      expect(migrate.securityContext).toEqual(main.securityContext);
      expect(migrate.volumeMounts).toEqual(main.volumeMounts);
    }
    expect(apps.filter(usesDatabase).length).toBe(runnableApps.length - 1);
    // The init container migrates; the service, whose role cannot change the schema, does not try.
    const config = byKind(objects, 'ConfigMap').find((o) => o.metadata.name === 'platform-config')!.data as Record<string, string>;
    expect(config.MIGRATE_ON_START).toBe('false');
  });

  describe('network policies', () => {
    const policies = byKind(objects, 'NetworkPolicy') as NetworkPolicy[];
    const namespace = apps[0].metadata.namespace!;
    const podsByApp = new Map(apps.map((d) => [d.metadata.name, podOf(d)]));
    const ingressController = podIn('ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' });
    const prometheus = podIn('monitoring', { 'app.kubernetes.io/name': 'prometheus' });
    const strangerInNamespace = podIn(namespace, { app: 'debug-shell' });
    /** Ports an app opens, plus a few it does not, tried against every app. */
    const probedPorts = [8080, 8081, METRICS_PORT, 22, 80, 443, 4222, 5432];

    it('lets only the gateway take traffic on its API port, and only Prometheus (monitoring namespace) reach metrics', () => {
      const sources: Array<[string, Pod | typeof EXTERNAL]> = [
        ['internet', EXTERNAL],
        ['ingress-nginx', ingressController],
        ['monitoring', prometheus],
        ['same-namespace stranger', strangerInNamespace],
        ...[...podsByApp].map(([app, pod]) => [app, pod] as [string, Pod]),
      ];
      const allowed: string[] = [];
      for (const [target, pod] of podsByApp) {
        for (const [source, from] of sources) {
          for (const port of probedPorts) if (mayConnect(policies, from, pod, port)) allowed.push(`${source} -> ${target}:${port}`);
        }
      }
      const expected = [
        ...['internet', 'ingress-nginx', 'monitoring', 'same-namespace stranger'].map((source) => `${source} -> gateway:8080`),
        ...[...podsByApp.keys()].map((app) => `monitoring -> ${app}:${METRICS_PORT}`),
      ];
      expect(allowed.sort()).toEqual(expected.sort());
    });

    it('lets apps out only to DNS, NATS, PostgreSQL (services) and the documented exceptions', () => {
      const candidates: Array<[number, Protocol]> = [
        [53, 'UDP'],
        [53, 'TCP'],
        [4222, 'TCP'],
        [5432, 'TCP'],
        [443, 'TCP'],
        [587, 'TCP'],
        [465, 'TCP'],
        [25, 'TCP'],
        [80, 'TCP'],
        [22, 'TCP'],
        [6379, 'TCP'],
        [9000, 'TCP'],
        [11434, 'TCP'],
        [4222, 'UDP'],
        [5432, 'UDP'],
      ];
      const base = ['53/UDP', '53/TCP', '4222/TCP'];
      const database = [...base, '5432/TCP'];
      const smtp = ['587/TCP', '465/TCP', '25/TCP'];
      // k8s/README.md, "Network policies": S3 from the apps opening media storage, HTTPS from publishing and webhooks, SMTP for mail.
      const expected: Record<string, string[]> = {
        gateway: [...base, '443/TCP'],
        accounts: [...database, ...smtp],
        notifications: [...database, ...smtp],
        admin: database,
        publishing: [...database, '443/TCP'],
        media: [...database, '443/TCP'],
        creative: [...database, '443/TCP'],
        insights: database,
        webhooks: [...database, '443/TCP'],
      };
      for (const [app, pod] of podsByApp) {
        const open = candidates
          .filter(([port, protocol]) => mayConnect(policies, pod, EXTERNAL, port, protocol))
          .map(([port, protocol]) => `${port}/${protocol}`);
        expect({ app, open: open.sort() }).toEqual({ app, open: [...(expected[app] ?? database)].sort() });
      }
    });

    it('keeps apps from reaching each other’s pods directly (they talk through NATS)', () => {
      for (const [source, from] of podsByApp) {
        for (const [target, to] of podsByApp) {
          const open = Object.values(to.ports).filter((port) => mayConnect(policies, from, to, port));
          expect({ source, target, open }).toEqual({ source, target, open: [] });
        }
      }
    });
  });

  (kubectlAvailable() ? it : it.skip)('renders the same objects offline as kubectl kustomize (generated names without their hash)', () => {
    const offline = renderKustomization(dir).objects;
    const sorted = (list: K8sObject[]) => [...list].sort((a, b) => idOf(a).localeCompare(idOf(b)));
    expect(offline).toHaveLength(objects.length);
    expect(sorted(offline)).toEqual(sorted(objects));
  });
});

/** Metric names the code registers (`metrics.gauge('name'`, …), without the `social_` prefix. */
function exportedMetrics(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/\.(?:gauge|counter|histogram)\(\s*['`]([a-z_]+)['`]/g)) names.add(m[1]);
      }
    }
  };
  for (const top of ['apps', 'libs']) walk(join(root, top));
  return names;
}

describe('k8s overlay specifics', () => {
  it('production keeps three copies of every JetStream stream, KV bucket and object store', () => {
    const config = byKind(renderOverlay(join(root, 'k8s/overlays/production')).objects, 'ConfigMap').find(
      (o) => o.metadata.name === 'platform-config',
    )!;
    expect((config.data as Record<string, string>).JETSTREAM_REPLICAS).toBe('3');
  });

  it('dev runs one replica of each app from :dev images', () => {
    for (const d of deploymentsOf(renderOverlay(join(root, 'k8s/overlays/dev')).objects)) {
      expect({ name: d.metadata.name, replicas: d.spec.replicas }).toEqual({ name: d.metadata.name, replicas: 1 });
      for (const c of d.spec.template.spec.containers) expect(splitImage(c.image).tag).toBe('dev');
    }
  });

  it('production runs two or more replicas of each app and keeps a gateway available', () => {
    const { objects } = renderOverlay(join(root, 'k8s/overlays/production'));
    for (const d of deploymentsOf(objects)) {
      expect({ name: d.metadata.name, replicas: d.spec.replicas }).toEqual({ name: d.metadata.name, replicas: expect.any(Number) });
      expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
    }
    const budgets = byKind(objects, 'PodDisruptionBudget') as Array<
      K8sObject & { spec: { selector: { matchLabels: Record<string, string> } } }
    >;
    expect(budgets.map((b) => b.spec.selector.matchLabels['app.kubernetes.io/name'])).toContain('gateway');
  });
});

describe('NATS', () => {
  const dev = renderOverlay(join(root, 'k8s/overlays/dev')).objects;
  const production = renderOverlay(join(root, 'k8s/overlays/production')).objects;
  const natsHost = (objects: K8sObject[]) =>
    new URL((byKind(objects, 'ConfigMap').find((o) => o.metadata.name === 'platform-config')!.data as Record<string, string>).NATS_URL)
      .hostname;

  it('dev runs NATS with JetStream on a volume, 8 MB messages, probes on the monitor port, non-root', () => {
    const statefulSets = byKind(dev, 'StatefulSet') as Array<
      Workload & { spec: { volumeClaimTemplates: Array<{ metadata: { name: string } }> } }
    >;
    expect(statefulSets.map((s) => s.metadata.name)).toEqual(['nats']);
    const [nats] = statefulSets;
    const [container] = nats.spec.template.spec.containers;
    expect(container.image).toBe('nats:2.10-alpine');
    // The configuration comes from a ConfigMap and keeps JetStream on the claimed volume.
    const config = (byKind(dev, 'ConfigMap').find((o) => o.metadata.name === 'nats-config')!.data as Record<string, string>)['nats.conf'];
    expect(config).toMatch(/^\s*max_payload:\s*8MB\s*$/m);
    const storeDir = /jetstream\s*\{[^}]*store_dir:\s*(\S+)/.exec(config)?.[1];
    const claim = nats.spec.volumeClaimTemplates.map((t) => t.metadata.name);
    expect(container.volumeMounts?.find((m) => m.mountPath === storeDir)?.name).toBe(claim[0]);
    for (const probe of [container.livenessProbe, container.readinessProbe]) {
      expect(probe?.httpGet?.path).toMatch(/^\/healthz/);
      expect(container.ports?.find((p) => p.name === probe?.httpGet?.port)?.containerPort).toBe(8222);
    }
    expect(nats.spec.template.spec.securityContext?.runAsNonRoot).toBe(true);
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
  });

  it('dev points NATS_URL at a Service on 4222 in front of that StatefulSet, which takes clients only from the platform', () => {
    const service = (byKind(dev, 'Service') as Service[]).find((svc) => svc.metadata.name === natsHost(dev))!;
    const nats = (byKind(dev, 'StatefulSet') as Workload[])[0];
    expect(selectorMatches({ matchLabels: service.spec.selector }, nats.spec.template.metadata.labels)).toBe(true);
    const port = service.spec.ports.find((p) => p.port === 4222)!;
    expect(
      nats.spec.template.spec.containers[0].ports?.find((p) => p.name === port.targetPort || p.containerPort === port.targetPort)
        ?.containerPort,
    ).toBe(4222);

    const policies = byKind(dev, 'NetworkPolicy') as NetworkPolicy[];
    const natsPod = podOf(nats);
    for (const d of deploymentsOf(dev))
      expect({ app: d.metadata.name, reaches: mayConnect(policies, podOf(d), natsPod, 4222) }).toEqual({
        app: d.metadata.name,
        reaches: true,
      });
    expect(mayConnect(policies, podIn(natsPod.namespace, { app: 'debug-shell' }), natsPod, 4222)).toBe(false);
    expect(mayConnect(policies, podIn('ingress-nginx'), natsPod, 4222)).toBe(false);
  });

  it('production runs no NATS (nor PostgreSQL) of its own', () => {
    expect(byKind(production, 'StatefulSet')).toEqual([]);
    expect(production.filter((o) => o.metadata.name === natsHost(production))).toEqual([]);
    // Only the platform's own images run there.
    const foreign = allContainersOf(production)
      .map((c) => c.image)
      .filter((image) => !image.startsWith(IMAGE_PREFIX));
    expect(foreign).toEqual([]);
  });
});

describe('docker compose', () => {
  // Anchors and `<<` merge keys are used to share settings between the apps.
  const compose = parse(readFileSync(join(root, 'docker/compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, { build?: { args?: { APP?: string } }; environment?: Record<string, string> }>;
  };
  const apps = Object.entries(compose.services).filter(([, service]) => service.build?.args?.APP);

  it('builds every app under apps/', () => {
    expect(apps.map(([, service]) => service.build!.args!.APP).sort()).toEqual(expect.arrayContaining(runnableApps));
  });

  it('uses only environment variable names from docs/decisions.md or the apps’ settings', () => {
    const unknown = apps.flatMap(([, service]) => Object.keys(service.environment ?? {})).filter((name) => !allowedEnv.has(name));
    expect(unknown).toEqual([]);
  });
});
