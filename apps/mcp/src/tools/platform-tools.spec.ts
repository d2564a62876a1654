import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { TOOL_CATALOGUE } from './catalogue.js';
import type { JsonSchema, OpenApiDocument } from './operation-input.js';
import { platformTools } from './platform-tools.js';

const document = JSON.parse(readFileSync(new URL('../../../../libs/sdk/openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;
const tools = platformTools(document);
const schemaOf = (name: string) =>
  tools.get(name)!.tool.inputSchema as JsonSchema & { properties: Record<string, any>; required: string[] };

describe('the MCP tools, from the OpenAPI document', () => {
  it('has every tool of the catalogue, each described by its operation', () => {
    expect([...tools.keys()]).toEqual(TOOL_CATALOGUE.map((tool) => tool.name));
    expect(tools.get('list_publications')!.tool.description).toMatch(/^The workspace's publications, newest first/);
  });

  it('takes path and query parameters and body members as arguments, required as the operation says, refusing others', () => {
    expect(schemaOf('list_publications')).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['workspace_id'],
      properties: {
        workspace_id: { type: 'string', format: 'uuid' },
        limit: { minimum: 1, maximum: 100 },
        status: { enum: expect.any(Array) },
      },
    });
    const schedule = schemaOf('schedule_publication');
    expect(Object.keys(schedule.properties).sort()).toEqual(
      ['account_ids', 'expected_revision', 'id', 'idempotency_key', 'scheduled_at', 'social_set_id'].sort(),
    );
    expect(schedule.required.sort()).toEqual(['expected_revision', 'id', 'idempotency_key', 'scheduled_at']);
    expect(schedule.properties.scheduled_at).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('requires idempotency_key of every write and of no read', () => {
    for (const { name, kind } of TOOL_CATALOGUE) {
      expect([name, schemaOf(name).required.includes('idempotency_key')]).toEqual([name, kind === 'write']);
    }
    // create_draft's key is the operation's own Idempotency-Key header, kept by the platform.
    expect(tools.get('create_draft')!.input.platformIdempotency).toBe(true);
    expect(schemaOf('create_draft').required.sort()).toEqual([
      'content_profile',
      'idempotency_key',
      'source_text',
      'title',
      'workspace_id',
    ]);
    expect(tools.get('cancel_publication')!.input.platformIdempotency).toBe(false);
  });

  it('inlines every $ref and leaves out read-only members ($schema)', () => {
    for (const name of tools.keys()) {
      const text = JSON.stringify(schemaOf(name));
      expect([name, text.includes('$ref'), text.includes('"$schema"')]).toEqual([name, false, false]);
    }
    const attach = schemaOf('attach_media');
    expect(Object.keys(attach.properties).sort()).toEqual(['expected_revision', 'id', 'idempotency_key', 'media']);
    expect(attach.properties.media.items).toMatchObject({ type: 'object', required: expect.arrayContaining(['media_id']) });
  });

  it('stops at start-up when the document lacks an operation or a body member a tool names', () => {
    const tool = { name: 'x', title: 'X', method: 'post', path: '/nowhere', kind: 'read' } as const;
    expect(() => platformTools(document, [tool])).toThrow('the OpenAPI document has no POST /nowhere');
    const narrow = { ...tool, path: '/publications/{id}', method: 'patch', bodyMembers: ['nothing'] } as const;
    expect(() => platformTools(document, [narrow])).toThrow('has no body member nothing');
  });
});
