import { describe, expect, it } from '@jest/globals';
import { baseUrl, call, expectProblem } from '../support/api.js';

const PUBLISHED_SCHEMAS = [
  'AuthTokens',
  'UserProfile',
  'SecurityStatusOutputBody',
  'PreferenceSettings',
  'NotificationMute',
  'PlanPublicationAnglesOutputBody',
  'ErrorModel',
];

describe('gateway: OpenAPI and JSON Schemas', () => {
  it('serves OpenAPI 3.1 describing the operations, without a token', async () => {
    const response = await call('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\.1\./);
    for (const path of ['/auth/register', '/auth/login', '/auth/me', '/notifications/preferences', '/notifications/mutes/{id}']) {
      expect(Object.keys(response.body.paths)).toContain(path);
    }
    const put = response.body.paths['/notifications/preferences'].put;
    expect(put.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/PreferenceSettings');
    expect(put.responses['422'].content['application/problem+json'].schema.allOf[0].$ref).toBe('#/components/schemas/ErrorModel');
    expect(put.responses['422'].content['application/problem+json'].schema.allOf[1].properties.code.enum).toEqual(['validation_failed']);
    expect(put.security).toEqual([{ bearer: [] }]);
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await call('GET', '/docs');
    expect(response.status).toBe(200);
    expect(String(response.body)).toMatch(/swagger/i);
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui-init.js', 'swagger-ui.css']) {
      expect((await call('GET', `/docs/${asset}`)).status).toBe(200);
    }
  });

  it.each(PUBLISHED_SCHEMAS)('resolves /api/v1/schemas/%s.json as JSON Schema 2020-12', async (name) => {
    const response = await call('GET', `/api/v1/schemas/${name}.json`);
    expect(response.status).toBe(200);
    expect(response.body.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(response.body.$id).toBe(`${baseUrl()}/api/v1/schemas/${name}.json`);
    expect(response.body.type).toBe('object');
    expect(JSON.stringify(response.body)).not.toContain('#/components/');
  });

  it('answers an unknown schema with a 404 problem', async () => {
    expectProblem(await call('GET', '/api/v1/schemas/NoSuchThing.json'), 404, 'not_found');
  });
});
