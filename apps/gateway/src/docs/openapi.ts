import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { PROBLEM_CATALOGUE } from '@social/contracts';
import { PUBLIC_OPERATION_EXTENSION } from '../auth/public.decorator.js';
import { problemResponse } from './problem-responses.js';

type JsonSchema = Record<string, unknown>;

/**
 * The API's version (semver; the major is the `/api/v1` prefix). The SDK package (libs/sdk/package.json) carries the
 * same version, so a client's version says which API it speaks: tools/src/sdk/package.spec.ts keeps them equal.
 */
export const API_VERSION = '1.1.0';

/** The problem body every failure answers with (docs/decisions.md). */
const ERROR_MODEL: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
  properties: {
    $schema: { type: 'string', format: 'uri', readOnly: true },
    type: { type: 'string', const: 'about:blank' },
    title: { type: 'string', description: 'the RFC 9110 reason phrase of the status' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(PROBLEM_CATALOGUE), description: 'stable snake_case identifier clients may switch on' },
    request_id: { type: 'string', description: 'equals the X-Request-Id response header' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['location', 'message'],
        properties: {
          location: { type: 'string', examples: ['body.accounts[0].social_account_id', 'query.page'] },
          message: { type: 'string' },
          value: {},
        },
      },
    },
    blockers: {
      type: 'array',
      description: 'deletion_blocked only: what E10 shows blocking the deletion',
      items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
    },
    attempts_remaining: { type: 'integer', description: 'invalid_code only: wrong codes left before the change locks' },
    current_revision: { type: 'integer', description: 'revision_conflict only: the revision stored now' },
  },
};

/**
 * OpenAPI 3.1 for every route, built once from the controllers and the
 * contract classes; its component schemas are also the JSON Schemas that
 * `$schema` URLs point to.
 */
export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Social publishing platform API')
    .setDescription(
      'Every path also answers under /api/v1. Errors are RFC 9457 application/problem+json (ErrorModel). ' +
        'Named response objects carry `$schema`, the URL of their JSON Schema under /api/v1/schemas/.',
    )
    .setVersion(API_VERSION)
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const schemas = (document.components ??= {}).schemas ?? {};
  schemas.ErrorModel = ERROR_MODEL;
  for (const schema of Object.values(schemas)) {
    toJsonSchema2020(schema as JsonSchema);
    const properties = (schema as JsonSchema).properties as Record<string, JsonSchema> | undefined;
    if (properties && !properties.$schema) {
      (schema as JsonSchema).properties = { $schema: { type: 'string', format: 'uri', readOnly: true }, ...properties };
    }
  }
  document.components.schemas = schemas;
  documentGatewayStatuses(document);
  return document;
}

/**
 * Statuses the gateway itself answers, whatever the operation: every operation that is not public needs
 * a bearer token (401) and is rate limited per token and per failing address (429); a path segment longer
 * than any identifier we issue is 414. Each secured operation also lists the bearer scheme.
 */
function documentGatewayStatuses(document: OpenAPIObject): void {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as Array<Record<string, any>>) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const isPublic = operation[PUBLIC_OPERATION_EXTENSION] === true;
      delete operation[PUBLIC_OPERATION_EXTENSION];
      const responses = operation.responses as Record<string, unknown>;
      if (!isPublic) {
        operation.security ??= [{ bearer: [] }];
        responses['401'] ??= problemResponse(401);
        responses['429'] ??= problemResponse(429);
      }
      if ((operation.parameters ?? []).some((parameter: { in?: string }) => parameter.in === 'path'))
        responses['414'] ??= problemResponse(414);
    }
  }
}

/** OpenAPI 3.0's `nullable: true` becomes a JSON Schema 2020-12 type union, recursively. */
function toJsonSchema2020(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(toJsonSchema2020);
  const schema = node as JsonSchema;
  if (schema.nullable === true) {
    delete schema.nullable;
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    else if (schema.$ref || schema.allOf) {
      const copy = { ...schema };
      for (const key of Object.keys(schema)) delete schema[key];
      schema.anyOf = [copy, { type: 'null' }];
    }
  }
  Object.values(schema).forEach(toJsonSchema2020);
}

/** One component schema as a standalone JSON Schema document; references point at sibling documents. */
export function jsonSchemaDocument(document: OpenAPIObject, name: string, baseUrl: string): JsonSchema | undefined {
  const schema = document.components?.schemas?.[name];
  if (!schema) return undefined;
  const body = JSON.parse(
    JSON.stringify(schema).replace(/"#\/components\/schemas\/([^"]+)"/g, (_m, ref: string) => `"${ref}.json"`),
  ) as JsonSchema;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}/api/v1/schemas/${name}.json`,
    title: name,
    ...body,
  };
}
