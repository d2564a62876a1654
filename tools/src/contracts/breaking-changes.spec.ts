import { describe, expect, it } from '@jest/globals';
import { messageBreakingChanges, openApiBreakingChanges } from './breaking-changes.js';
import type { MessageContracts } from './message-contracts.js';

const document = (request: Record<string, unknown>, answer: Record<string, unknown>, extraPath = true) => ({
  paths: {
    '/things': {
      post: {
        parameters: [{ in: 'query', name: 'mode', required: false }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateThing' } } } },
        responses: { '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
      },
    },
    ...(extraPath ? { '/things/{id}': { get: { responses: { '200': {} } } } } : {}),
  },
  components: { schemas: { CreateThing: request, Thing: answer } },
});

const request = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['a', 'b'] } },
};
const answer = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } };

describe('openApiBreakingChanges', () => {
  it('finds nothing in the same document, or in additions clients can ignore', () => {
    expect(openApiBreakingChanges(document(request, answer), document(request, answer))).toEqual([]);
    const more = {
      ...answer,
      required: [...answer.required, 'note'],
      properties: { ...answer.properties, note: { type: 'string' } },
    };
    const optional = { ...request, properties: { ...request.properties, hint: { type: 'string' } } };
    expect(openApiBreakingChanges(document(request, answer), document(optional, more))).toEqual([]);
  });

  it('finds removed operations and members, new required members, changed types and narrowed enums', () => {
    const narrowed = {
      type: 'object',
      required: ['name', 'size'],
      properties: { name: { type: 'integer' }, kind: { type: 'string', enum: ['a'] }, size: { type: 'integer' } },
    };
    const fewer = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };
    expect(openApiBreakingChanges(document(request, answer), document(narrowed, fewer, false))).toEqual([
      'GET /things/{id}: removed',
      'schema CreateThing.name: type "string" -> "integer"',
      'schema CreateThing.kind: no longer accepts b',
      'schema CreateThing.size: now required in requests',
      'schema Thing.name: removed',
    ]);
  });
});

describe('messageBreakingChanges', () => {
  const contracts = (caller: string, subjects: string[]): MessageContracts => ({
    operations: {
      'svc.things.create': { caller, params: [], query: null, body: 'CreateThing', answer: 'reply<Thing>', idempotent: true },
    },
    subjects,
  });

  it('finds removed subjects and stricter callers, and accepts additions', () => {
    expect(messageBreakingChanges(contracts('member', ['svc.internal']), contracts('member', ['svc.internal', 'svc.new']))).toEqual([]);
    expect(messageBreakingChanges(contracts('member', ['svc.internal']), contracts('admin', []))).toEqual([
      'message svc.things.create: caller member -> admin',
      'message svc.internal: removed',
    ]);
    const declared = contracts('member', []);
    expect(messageBreakingChanges({ operations: {}, subjects: ['svc.things.create'] }, declared)).toEqual([]);
    expect(messageBreakingChanges(contracts('member', []), { operations: {}, subjects: [] })).toEqual([
      'message svc.things.create: removed',
    ]);
  });
});
