/**
 * Offline checks of k8s/ (and the env names in docker/compose.yaml): each
 * overlay is rendered by our small loader, validated against the Kubernetes
 * OpenAPI schemas from `kubernetes-models`, and held to the rules the apps rely
 * on. When kubectl is installed, its own kustomize output must match ours.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { K8sObject, renderKustomization, splitImage } from './render-kustomize.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const overlays = ['dev', 'production'];
const IMAGE_PREFIX = 'social-platform/';

/** Contract §9: the environment variable names shared by all apps, docker/ and k8s/. */
const CONTRACT_ENV = [
  'PORT', 'PUBLIC_BASE_URL', 'PUBLIC_APP_URL', 'DATABASE_URL', 'NATS_URL', 'SECRETS_KEY',
  'JWT_PRIVATE_KEY', 'JWT_PUBLIC_KEY', 'SMTP_URL', 'SMTP_FROM', 'AI_BASE_URL', 'AI_API_KEY', 'AI_MODEL',
  'S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY',
  'WEBAUTHN_RP_ID', 'WEBAUTHN_ORIGIN', 'LOG_LEVEL',
];

/** Apps that can run: a directory under apps/ with a src/main.ts. */
const runnableApps = readdirSync(join(root, 'apps')).filter((app) => existsSync(join(root, 'apps', app, 'src/main.ts')));

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
const allowedEnv = new Set([...CONTRACT_ENV, ...declaredSettings()]);

interface Probe { httpGet?: { path?: string; port: number | string } }
interface Container {
  name: string;
  image: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
}
interface PodSpec { securityContext?: { runAsNonRoot?: boolean }; containers: Container[] }
type Workload = K8sObject & { spec: { replicas?: number; template: { spec: PodSpec } } };

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const deploymentsOf = (objects: K8sObject[]) => byKind(objects, 'Deployment') as Workload[];
const containersOf = (objects: K8sObject[]) => deploymentsOf(objects).flatMap((d) => d.spec.template.spec.containers);
const idOf = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Finds the model class by apiVersion and kind, e.g. kubernetes-models/apps/v1/Deployment. */
async function validateSchema(object: K8sObject): Promise<void> {
  const module = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<string, new (data: unknown) => { validate(): void }>;
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
  const { objects, localConfig } = renderKustomization(dir);
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
    for (const { image } of containersOf(objects)) expect({ image, tag: splitImage(image).tag }).toEqual({ image, tag: expect.any(String) });
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
    }
  });

  it('runs every pod as non-root with a read-only root and no capabilities', () => {
    for (const d of deploymentsOf(objects)) {
      expect(d.spec.template.spec.securityContext?.runAsNonRoot).toBe(true);
      for (const c of d.spec.template.spec.containers) {
        expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      }
    }
  });

  it('uses only environment variable names from contract §9 or the apps’ settings', () => {
    const configMapKeys = byKind(objects, 'ConfigMap').flatMap((o) => Object.keys((o.data as object) ?? {}));
    const explicit = containersOf(objects).flatMap((c) => (c.env ?? []).map((e) => e.name));
    const unknown = [...configMapKeys, ...explicit, ...secretKeys].filter((name) => !allowedEnv.has(name));
    expect(unknown).toEqual([]);
  });

  it('points every secretKeyRef at a key of the Secret and every envFrom at an existing object', () => {
    const names = new Set([...objects, ...localConfig].map((o) => `${o.kind}/${o.metadata.name}`));
    for (const c of containersOf(objects)) {
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

  (kubectlAvailable() ? it : it.skip)('renders the same objects as kubectl kustomize', () => {
    const output = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
    const theirs = parseAllDocuments(output).map((doc) => doc.toJS() as K8sObject).filter(Boolean);
    const sorted = (list: K8sObject[]) => [...list].sort((a, b) => idOf(a).localeCompare(idOf(b)));
    expect(theirs).toHaveLength(objects.length);
    expect(sorted(theirs)).toEqual(sorted(objects));
  });
});

describe('k8s overlay specifics', () => {
  it('dev runs one replica of each app from :dev images', () => {
    for (const d of deploymentsOf(renderKustomization(join(root, 'k8s/overlays/dev')).objects)) {
      expect({ name: d.metadata.name, replicas: d.spec.replicas }).toEqual({ name: d.metadata.name, replicas: 1 });
      for (const c of d.spec.template.spec.containers) expect(splitImage(c.image).tag).toBe('dev');
    }
  });

  it('production runs two or more replicas of each app and keeps a gateway available', () => {
    const { objects } = renderKustomization(join(root, 'k8s/overlays/production'));
    for (const d of deploymentsOf(objects)) {
      expect({ name: d.metadata.name, replicas: d.spec.replicas }).toEqual({ name: d.metadata.name, replicas: expect.any(Number) });
      expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
    }
    const budgets = byKind(objects, 'PodDisruptionBudget') as Array<K8sObject & { spec: { selector: { matchLabels: Record<string, string> } } }>;
    expect(budgets.map((b) => b.spec.selector.matchLabels['app.kubernetes.io/name'])).toContain('gateway');
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

  it('uses only environment variable names from contract §9 or the apps’ settings', () => {
    const unknown = apps.flatMap(([, service]) => Object.keys(service.environment ?? {})).filter((name) => !allowedEnv.has(name));
    expect(unknown).toEqual([]);
  });
});
