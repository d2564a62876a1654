/**
 * A tool's input, taken from one operation of the OpenAPI document: its path and query parameters and the members of
 * its JSON body become the tool's arguments, with the document's own schemas ($refs resolved), so that the tools
 * change with the API and nothing is described twice.
 */

export type JsonSchema = Record<string, unknown>;
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Where one argument goes in the request. */
export interface ArgumentPlace {
  in: 'path' | 'query' | 'header' | 'body';
  /** Its name there (the parameter's or the body member's). */
  name: string;
}

export interface OperationInput {
  operation: OpenApiOperation;
  /** JSON Schema of the tool's arguments (an object; unknown members refused). */
  schema: JsonSchema & { properties: Record<string, JsonSchema>; required: string[] };
  places: Map<string, ArgumentPlace>;
  /** Whether the operation takes a JSON body (sent, possibly `{}`, even when no member is given). */
  hasBody: boolean;
  /** Whether the platform itself keeps `Idempotency-Key` for this operation (else the MCP session does). */
  platformIdempotency: boolean;
}

/** The argument every write takes; sent as the `Idempotency-Key` header where the operation declares it. */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';
const IDEMPOTENCY_HEADER = 'idempotency-key';

export interface InputOptions {
  /** Only these body members (e.g. `expected_revision` and `media` for attaching media). */
  bodyMembers?: readonly string[];
  /** A write: `idempotency_key` is required. */
  write: boolean;
}

export function operationInput(document: OpenApiDocument, method: HttpMethod, path: string, options: InputOptions): OperationInput {
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`the OpenAPI document has no ${method.toUpperCase()} ${path}`);
  const resolve = refResolver(document);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const places = new Map<string, ArgumentPlace>();
  const add = (argument: string, place: ArgumentPlace, schema: JsonSchema, isRequired: boolean) => {
    if (places.has(argument)) throw new Error(`${method.toUpperCase()} ${path}: "${argument}" is both a parameter and a body member`);
    places.set(argument, place);
    properties[argument] = schema;
    if (isRequired) required.push(argument);
  };

  let platformIdempotency = false;
  for (const parameter of operation.parameters ?? []) {
    const schema = { ...resolve(parameter.schema ?? {}), ...(parameter.description ? { description: parameter.description } : {}) };
    if (parameter.in === 'path' || parameter.in === 'query') {
      add(parameter.name, { in: parameter.in, name: parameter.name }, schema, parameter.required === true);
    } else if (parameter.in === 'header' && parameter.name.toLowerCase() === IDEMPOTENCY_HEADER) {
      platformIdempotency = true;
      add(IDEMPOTENCY_ARGUMENT, { in: 'header', name: parameter.name }, schema, options.write);
    }
  }

  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  if (bodySchema) {
    const body = resolve(bodySchema);
    const members = (body.properties ?? {}) as Record<string, JsonSchema>;
    const requiredMembers = new Set(operation.requestBody?.required === false ? [] : ((body.required ?? []) as string[]));
    for (const [member, schema] of Object.entries(members)) {
      if (options.bodyMembers && !options.bodyMembers.includes(member)) continue;
      add(member, { in: 'body', name: member }, schema, requiredMembers.has(member));
    }
    const missing = (options.bodyMembers ?? []).filter((member) => !(member in members));
    if (missing.length > 0) throw new Error(`${method.toUpperCase()} ${path} has no body member ${missing.join(', ')}`);
  }

  if (options.write && !platformIdempotency) {
    add(
      IDEMPOTENCY_ARGUMENT,
      { in: 'header', name: IDEMPOTENCY_ARGUMENT },
      {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description:
          'Makes a retry safe: the same key with the same arguments in this session answers the first result again and sends nothing.',
      },
      true,
    );
  }
  const schema = { type: 'object', properties, required, additionalProperties: false };
  return { operation, schema, places, hasBody: !!bodySchema, platformIdempotency };
}

/**
 * Inlines `#/components/schemas/…` references (a tool's schema stands alone) and leaves out read-only members, which
 * a request never carries (`$schema`). A schema that refers to itself stops at the second visit as a plain object.
 */
function refResolver(document: OpenApiDocument): (schema: JsonSchema) => JsonSchema {
  const components = document.components?.schemas ?? {};
  const resolve = (node: unknown, visiting: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, visiting));
    if (!node || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as JsonSchema;
    if (typeof $ref === 'string') {
      const name = /^#\/components\/schemas\/(.+)$/.exec($ref)?.[1];
      if (!name || !components[name]) throw new Error(`unresolvable $ref ${$ref}`);
      if (visiting.includes(name)) return { type: 'object', description: `a ${name} (recursive)`, ...rest };
      return { ...(resolve(components[name], [...visiting, name]) as JsonSchema), ...(resolve(rest, visiting) as JsonSchema) };
    }
    const copy: JsonSchema = {};
    for (const [key, value] of Object.entries(rest)) {
      if (key === 'properties' && value && typeof value === 'object') {
        const properties = Object.entries(value as Record<string, JsonSchema>).filter(([, member]) => member?.readOnly !== true);
        copy.properties = Object.fromEntries(properties.map(([member, schema]) => [member, resolve(schema, visiting)]));
      } else copy[key] = resolve(value, visiting);
    }
    return copy;
  };
  return (schema) => resolve(schema, []) as JsonSchema;
}
