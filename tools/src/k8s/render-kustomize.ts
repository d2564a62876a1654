/**
 * Renders a kustomization: with `kubectl kustomize` where kubectl is installed (`renderOverlay`), else with
 * a small, dependency-light stand-in so manifests can still be checked offline. The stand-in supports only
 * what k8s/ uses: `resources` (files and directories), `components` (their resources), `namespace`, `images`,
 * `replicas`, `configMapGenerator`/`secretGenerator` (envs files and literals, create or merge; names without
 * kustomize's content hash), `generatorOptions.labels` and inline JSON 6902 `patches` targeted by kind (and
 * name). Any other field throws, so the loader can never silently render something kustomize would not.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface Rendered {
  /** What `kubectl kustomize` would print. */
  objects: K8sObject[];
  /** Objects marked `config.kubernetes.io/local-config` (templates): kustomize drops them. */
  localConfig: K8sObject[];
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  components?: string[];
  patches?: Patch[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  generatorOptions?: { labels?: Record<string, string> };
}

interface Generator {
  name: string;
  behavior?: 'create' | 'merge' | 'replace';
  envs?: string[];
  literals?: string[];
}

interface Patch {
  target?: { kind?: string; name?: string };
  patch?: string;
}

interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'images',
  'replicas',
  'components',
  'patches',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
]);
const SCALABLE = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'PriorityClass',
]);
const LOCAL_CONFIG = 'config.kubernetes.io/local-config';

/** Every YAML document in a file, skipping empty ones (a trailing `---`). */
export function parseYamlFile(path: string): unknown[] {
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0].message}`);
      return doc.toJS() as unknown;
    })
    .filter((value) => value != null);
}

/** A Component (`expectedKind`) works on what the kustomization including it has gathered so far (`accumulated`), as kustomize does. */
export function renderKustomization(dir: string, expectedKind = 'Kustomization', accumulated?: Rendered): Rendered {
  const [kustomization] = parseYamlFile(join(dir, 'kustomization.yaml')) as Kustomization[];
  const unsupported = Object.keys(kustomization).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0) throw new Error(`${dir}: kustomize field(s) not supported by this loader: ${unsupported.join(', ')}`);
  if ((kustomization.kind ?? 'Kustomization') !== expectedKind)
    throw new Error(`${dir}: expected kind ${expectedKind}, found ${kustomization.kind}`);

  const rendered: Rendered = accumulated ?? { objects: [], localConfig: [] };
  const add = (part: Rendered) => {
    rendered.objects.push(...part.objects);
    rendered.localConfig.push(...part.localConfig);
  };
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    add(statSync(path).isDirectory() ? renderKustomization(path) : loadResourceFile(path));
  }
  generate(dir, kustomization, rendered.objects);
  // Components come after the resources, before this kustomization's own transformers.
  for (const component of kustomization.components ?? []) renderKustomization(join(dir, component), 'Component', rendered);

  rejectDuplicates(dir, rendered.objects);
  if (kustomization.namespace) {
    for (const object of rendered.objects) {
      if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
    }
  }
  for (const image of kustomization.images ?? []) setImage(rendered.objects, image);
  for (const { name, count } of kustomization.replicas ?? []) {
    const targets = rendered.objects.filter((o) => SCALABLE.has(o.kind) && o.metadata.name === name);
    if (targets.length === 0) throw new Error(`${dir}: replicas: no workload named ${name}`);
    for (const target of targets) (target.spec as { replicas?: number }).replicas = count;
  }
  for (const patch of kustomization.patches ?? []) applyPatch(dir, rendered.objects, patch);
  return rendered;
}

/** `KEY=VALUE` lines of an env file (kustomize's `envs`): `#` comments and blank lines skipped, values verbatim. */
function readEnvFile(path: string): Array<[string, string]> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .map((line) => {
      const at = line.indexOf('=');
      if (at <= 0) throw new Error(`${path}: not KEY=VALUE: ${line}`);
      return [line.slice(0, at), line.slice(at + 1)];
    });
}

/** configMapGenerator and secretGenerator: new objects, or merged into one an earlier layer generated. */
function generate(dir: string, kustomization: Kustomization, objects: K8sObject[]): void {
  const kinds: Array<['ConfigMap' | 'Secret', Generator[] | undefined]> = [
    ['ConfigMap', kustomization.configMapGenerator],
    ['Secret', kustomization.secretGenerator],
  ];
  for (const [kind, generators] of kinds) {
    for (const generator of generators ?? []) {
      const entries = [
        ...(generator.envs ?? []).flatMap((file) => readEnvFile(join(dir, file))),
        ...(generator.literals ?? []).map((literal): [string, string] => [
          literal.slice(0, literal.indexOf('=')),
          literal.slice(literal.indexOf('=') + 1),
        ]),
      ];
      const encode = (value: string) => (kind === 'Secret' ? Buffer.from(value, 'utf8').toString('base64') : value);
      const data = Object.fromEntries(entries.map(([key, value]) => [key, encode(value)]));
      const existing = objects.find((o) => o.kind === kind && o.metadata.name === generator.name);
      if ((generator.behavior ?? 'create') === 'create') {
        if (existing) throw new Error(`${dir}: ${kind} ${generator.name} is generated twice`);
        const labels = kustomization.generatorOptions?.labels;
        objects.push({
          apiVersion: 'v1',
          kind,
          metadata: { name: generator.name, ...(labels ? { labels: { ...labels } } : {}) },
          ...(kind === 'Secret' ? { type: 'Opaque' } : {}),
          data,
        });
      } else {
        if (!existing) throw new Error(`${dir}: ${kind} ${generator.name} to ${generator.behavior} does not exist`);
        existing.data = generator.behavior === 'merge' ? { ...(existing.data as object), ...data } : data;
      }
    }
  }
}

/** An inline JSON 6902 patch on every object of the target's kind (and name, taken literally). */
function applyPatch(dir: string, objects: K8sObject[], { target, patch, ...rest }: Patch): void {
  const extra = [...Object.keys(rest), ...Object.keys(target ?? {}).filter((key) => key !== 'kind' && key !== 'name')];
  if (!target?.kind || patch === undefined || extra.length > 0) {
    throw new Error(
      `${dir}: only inline JSON 6902 patches with a target kind (and name) are supported${extra.length ? `, not ${extra.join(', ')}` : ''}`,
    );
  }
  const operations = parseAllDocuments(patch).map((doc) => doc.toJS() as unknown)[0];
  if (!Array.isArray(operations)) throw new Error(`${dir}: a patch must be a list of JSON 6902 operations`);
  const targets = objects.filter((o) => o.kind === target.kind && (target.name === undefined || o.metadata.name === target.name));
  if (targets.length === 0) throw new Error(`${dir}: patch matches no ${target.kind}${target.name ? ` named ${target.name}` : ''}`);
  for (const object of targets) for (const operation of operations as PatchOperation[]) applyOperation(dir, object, operation);
}

function applyOperation(dir: string, object: K8sObject, { op, path, value }: PatchOperation): void {
  const keys = path
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop();
  let parent: unknown = object;
  for (const key of keys) parent = (parent as Record<string, unknown> | undefined)?.[key];
  if (last === undefined || parent === null || typeof parent !== 'object')
    throw new Error(`${dir}: patch path ${path} not found in ${object.kind}/${object.metadata.name}`);
  const container = parent as Record<string, unknown>;
  if (Array.isArray(container) && op === 'add') {
    container.splice(last === '-' ? container.length : Number(last), 0, value);
    return;
  }
  if (op !== 'add' && !(last in container))
    throw new Error(`${dir}: patch path ${path} not found in ${object.kind}/${object.metadata.name}`);
  if (op === 'remove') {
    if (Array.isArray(container)) container.splice(Number(last), 1);
    else delete container[last];
  } else if (op === 'add' || op === 'replace') {
    container[last] = value;
  } else {
    throw new Error(`${dir}: JSON 6902 op ${String(op)} is not supported`);
  }
}

function loadResourceFile(path: string): Rendered {
  const rendered: Rendered = { objects: [], localConfig: [] };
  for (const value of parseYamlFile(path)) {
    const object = value as K8sObject;
    if (!object.apiVersion || !object.kind || !object.metadata?.name) {
      throw new Error(`${path}: every document needs apiVersion, kind and metadata.name`);
    }
    const local = object.metadata.annotations?.[LOCAL_CONFIG] === 'true';
    (local ? rendered.localConfig : rendered.objects).push(object);
  }
  return rendered;
}

/** kustomize refuses two objects with the same kind, namespace and name. */
function rejectDuplicates(dir: string, objects: K8sObject[]): void {
  const seen = new Set<string>();
  for (const { apiVersion, kind, metadata } of objects) {
    const id = `${apiVersion}/${kind}/${metadata.namespace ?? ''}/${metadata.name}`;
    if (seen.has(id)) throw new Error(`${dir}: duplicate resource ${id}`);
    seen.add(id);
  }
}

type Container = { image?: string };

/** The `images` transformer: match on the name part of `name[:tag][@digest]`. */
function setImage(objects: K8sObject[], image: NonNullable<Kustomization['images']>[number]): void {
  for (const object of objects) {
    const pod = (object.spec as { template?: { spec?: Record<string, Container[] | undefined> } } | undefined)?.template?.spec;
    for (const container of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
      if (!container.image) continue;
      const { name, tag, digest } = splitImage(container.image);
      if (name !== image.name) continue;
      const newName = image.newName ?? name;
      if (image.digest) container.image = `${newName}@${image.digest}`;
      else if (image.newTag) container.image = `${newName}:${image.newTag}`;
      else container.image = `${newName}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
    }
  }
}

export function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const [rest, digest] = image.split('@');
  // A colon after the last slash is a tag; before it, a registry port.
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) return { name: rest.slice(0, colon), tag: rest.slice(colon + 1), digest };
  return { name: rest, digest };
}

function kubectlAvailable(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Generated ConfigMaps and Secrets carry a content hash in their name (`platform-config-8b9cbb9468`). */
const HASHED_NAME = /^(.+)-[a-z0-9]{10}$/;

/**
 * The overlay as `kubectl kustomize` renders it where kubectl is installed (generated names without their
 * hash suffix, references included, so checks can name them), else as the offline stand-in renders it.
 */
export function renderOverlay(dir: string): Rendered & { renderer: 'kubectl' | 'offline' } {
  if (!kubectlAvailable()) return { ...renderKustomization(dir), renderer: 'offline' };
  const output = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const objects = parseAllDocuments(output)
    .map((doc) => doc.toJS() as K8sObject)
    .filter(Boolean);
  const renames = new Map<string, string>();
  for (const object of objects) {
    const match = (object.kind === 'ConfigMap' || object.kind === 'Secret') && HASHED_NAME.exec(object.metadata.name);
    if (match) renames.set(object.metadata.name, match[1]);
  }
  const text = JSON.stringify(objects, (_key, value: unknown) =>
    typeof value === 'string' && renames.has(value) ? renames.get(value) : value,
  );
  // kubectl leaves local-config objects (secret templates) out; the offline loader still lists them for the checks.
  return { objects: JSON.parse(text) as K8sObject[], localConfig: renderKustomization(dir).localConfig, renderer: 'kubectl' };
}
