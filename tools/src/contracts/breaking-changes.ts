import type { MessageContracts } from './message-contracts.js';

type Schema = Record<string, any>;
type Document = Record<string, any>;

const CALLER_STRICTNESS = ['anyone', 'member', 'account', 'admin'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Changes to the bus that break a caller still running the previous version (a rolling deploy, another team's service). */
export function messageBreakingChanges(before: MessageContracts, after: MessageContracts): string[] {
  const changes: string[] = [];
  for (const [subject, was] of Object.entries(before.operations)) {
    const now = after.operations[subject];
    if (!now) {
      changes.push(`message ${subject}: removed`);
      continue;
    }
    if (CALLER_STRICTNESS.indexOf(now.caller) > CALLER_STRICTNESS.indexOf(was.caller))
      changes.push(`message ${subject}: caller ${was.caller} -> ${now.caller}`);
    for (const param of now.params) if (!was.params.includes(param)) changes.push(`message ${subject}: new path id ${param}`);
    for (const part of ['query', 'body', 'answer'] as const)
      if (was[part] !== now[part]) changes.push(`message ${subject}: ${part} ${was[part]} -> ${now[part]}`);
    if (was.idempotent && !now.idempotent) changes.push(`message ${subject}: no longer takes an Idempotency-Key`);
  }
  // A subject that became a declared operation is still served.
  for (const subject of before.subjects)
    if (!after.subjects.includes(subject) && !after.operations[subject]) changes.push(`message ${subject}: removed`);
  return changes;
}

/** Changes to the HTTP API that break a client written against the previous document. */
export function openApiBreakingChanges(before: Document, after: Document): string[] {
  const changes: string[] = [];
  for (const [path, operations] of Object.entries<Document>(before.paths ?? {})) {
    for (const method of METHODS) {
      const was = operations[method];
      if (!was) continue;
      const now = after.paths?.[path]?.[method];
      const name = `${method.toUpperCase()} ${path}`;
      if (!now) {
        changes.push(`${name}: removed`);
        continue;
      }
      const required = (operation: Document) =>
        new Set<string>((operation.parameters ?? []).filter((p: Schema) => p.required).map((p: Schema) => `${p.in} ${p.name}`));
      const known = new Set<string>((was.parameters ?? []).map((p: Schema) => `${p.in} ${p.name}`));
      for (const parameter of required(now)) if (!required(was).has(parameter)) changes.push(`${name}: ${parameter} is now required`);
      for (const parameter of known)
        if (!(now.parameters ?? []).some((p: Schema) => `${p.in} ${p.name}` === parameter)) changes.push(`${name}: ${parameter} removed`);
      const success = (operation: Document) => Object.keys(operation.responses ?? {}).find((status) => status.startsWith('2'));
      if (success(was) !== success(now)) changes.push(`${name}: answers ${success(now)} instead of ${success(was)}`);
    }
  }
  const { requests, responses } = schemasInUse(before);
  const beforeSchemas: Record<string, Schema> = before.components?.schemas ?? {};
  const afterSchemas: Record<string, Schema> = after.components?.schemas ?? {};
  for (const [name, was] of Object.entries(beforeSchemas)) {
    const now = afterSchemas[name];
    if (!now) {
      if (requests.has(name) || responses.has(name)) changes.push(`schema ${name}: removed`);
      continue;
    }
    const wasProperties: Record<string, Schema> = was.properties ?? {};
    const nowProperties: Record<string, Schema> = now.properties ?? {};
    const wasRequired = new Set<string>(was.required ?? []);
    const nowRequired = new Set<string>(now.required ?? []);
    for (const [property, wasProperty] of Object.entries(wasProperties)) {
      const nowProperty = nowProperties[property];
      const where = `schema ${name}.${property}`;
      if (!nowProperty) {
        changes.push(`${where}: removed`);
        continue;
      }
      if (JSON.stringify(wasProperty.type) !== JSON.stringify(nowProperty.type) || wasProperty.$ref !== nowProperty.$ref)
        changes.push(`${where}: type ${describeType(wasProperty)} -> ${describeType(nowProperty)}`);
      if (requests.has(name))
        for (const value of wasProperty.enum ?? [])
          if (!(nowProperty.enum ?? []).includes(value)) changes.push(`${where}: no longer accepts ${value}`);
      if (responses.has(name) && wasRequired.has(property) && !nowRequired.has(property))
        changes.push(`${where}: no longer always present`);
    }
    if (requests.has(name))
      for (const property of nowRequired)
        if (!wasRequired.has(property)) changes.push(`schema ${name}.${property}: now required in requests`);
  }
  return changes;
}

const describeType = (schema: Schema): string => (schema.$ref ? String(schema.$ref).split('/').pop()! : JSON.stringify(schema.type));

/** The component schemas a request body or a success answer reaches, through references. */
function schemasInUse(document: Document): { requests: Set<string>; responses: Set<string> } {
  const requests = new Set<string>();
  const responses = new Set<string>();
  const schemas: Record<string, Schema> = document.components?.schemas ?? {};
  const reach = (node: unknown, into: Set<string>): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item) => reach(item, into));
    const ref = (node as Schema).$ref;
    if (typeof ref === 'string') {
      const name = ref.split('/').pop()!;
      if (!into.has(name)) {
        into.add(name);
        reach(schemas[name], into);
      }
    }
    Object.values(node).forEach((value) => reach(value, into));
  };
  for (const operations of Object.values<Document>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (!operation) continue;
      reach(operation.requestBody, requests);
      reach(operation.parameters, requests);
      for (const [status, response] of Object.entries(operation.responses ?? {})) if (status.startsWith('2')) reach(response, responses);
    }
  }
  return { requests, responses };
}
