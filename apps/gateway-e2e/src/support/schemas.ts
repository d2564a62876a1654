import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from '@jest/globals';
import { baseUrl, call } from './api.js';

const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true, loadSchema: fetchSchema });
(addFormats as unknown as typeof addFormats.default)(ajv);

async function fetchSchema(uri: string): Promise<object> {
  const response = await fetch(uri);
  if (response.status !== 200) throw new Error(`${uri} answered ${response.status}`);
  return (await response.json()) as object;
}

/**
 * The body's `$schema` must resolve, and the body must validate against it
 * (required members, types, formats, null only where the schema allows).
 */
export async function expectMatchesOwnSchema(body: { $schema?: string }, name: string) {
  expect(body.$schema).toBe(`${baseUrl()}/api/v1/schemas/${name}.json`);
  const schemaResponse = await call('GET', `/api/v1/schemas/${name}.json`);
  expect(schemaResponse.status).toBe(200);
  const validate = ajv.getSchema(body.$schema!) ?? (await ajv.compileAsync(schemaResponse.body));
  const valid = validate(body);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}

/** For values that carry no `$schema` of their own (items of E4's bare array): validate against a named schema. */
export async function expectMatchesSchema(value: unknown, name: string) {
  const url = `${baseUrl()}/api/v1/schemas/${name}.json`;
  const schemaResponse = await call('GET', `/api/v1/schemas/${name}.json`);
  expect(schemaResponse.status).toBe(200);
  const validate = ajv.getSchema(url) ?? (await ajv.compileAsync(schemaResponse.body));
  const valid = validate(value);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}
