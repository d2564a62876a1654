import { describe, expect, it } from '@jest/globals';
import { DESIGN_PAGE_MAX_BYTES, type ImageEditorDocument, type Principal } from '@social/contracts';
import { AccessControl, RpcClient } from '@social/platform';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { CreativeConfig } from '../config.js';
import type { DesignRenderer } from '../rendering/design-renderer.js';
import type { TemplatesService } from '../templates/templates.service.js';
import type { DesignRow } from './design.row.js';
import { DesignsService } from './designs.service.js';

const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const principal: Principal = { userId: 'u1', sessionId: 's', isAdmin: false, tokenKind: 'session', workspaceId: null };
const document = { width_px: 10, height_px: 10, pages: [{ id: 'p' }] } as unknown as ImageEditorDocument;

/** The service over the design rows a page query answers; the access check and the writes are recorded. */
function designs(rows: DesignRow[] = []) {
  const checked: unknown[] = [];
  const access = {
    requireWorkspace: async (...args: unknown[]) => {
      checked.push(args.slice(1));
      return { workspace_id: WORKSPACE, workspace_name: 'Team', organization_id: 'o', role: 'editor' };
    },
  } as unknown as AccessControl;
  const dataSource = { query: async () => rows } as unknown as DataSource;
  const service = new DesignsService(
    dataSource,
    access,
    {} as RpcClient,
    {} as TemplatesService,
    {} as DesignRenderer,
    { SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') } as CreativeConfig,
    {} as Logger,
  );
  return { service, checked };
}

/** A design whose document is about `bytes` long as JSON. */
const designOf = (index: number, bytes: number): DesignRow => ({
  id: `0190a000-0000-7000-8000-00000000000${index}`,
  workspaceId: WORKSPACE,
  name: `Design ${index}`,
  document: { ...document, title: 'x'.repeat(bytes) } as ImageEditorDocument,
  headRevisionId: 'r',
  lastRevision: 1,
  previewMediaId: '',
  createdAt: new Date('2030-01-01T00:00:00.000Z'),
  updatedAt: new Date(Date.UTC(2030, 0, 10 - index)),
});

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('creating a design', () => {
  it('takes a document or a template, not both, before checking any access', async () => {
    const { service, checked } = designs();
    expect(
      await refusalOf(service.create(principal, { workspace_id: WORKSPACE, name: 'd', document, template_id: 'instagram-square' })),
    ).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.template_id', message: expect.stringContaining('not be sent') }] },
    });
    expect(await refusalOf(service.create(principal, { workspace_id: WORKSPACE, name: 'd' }))).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.document', message: 'is required (or template_id)' }] },
    });
    expect(checked).toEqual([]);
  });
});

describe('a page of designs', () => {
  it('is for viewers of the workspace', async () => {
    const { service, checked } = designs();
    expect(await service.list(principal, { workspace_id: WORKSPACE })).toEqual({ designs: [], next_cursor: '' });
    expect(checked).toEqual([[WORKSPACE, 'viewer', 'query']]);
  });

  it('stops before its documents would pass the message budget, and says there is more', async () => {
    const third = Math.floor(DESIGN_PAGE_MAX_BYTES / 3);
    const page = await designs([designOf(1, third), designOf(2, third), designOf(3, third)]).service.list(principal, {
      workspace_id: WORKSPACE,
    });
    expect(page.designs.map((d) => d.name)).toEqual(['Design 1', 'Design 2']);
    expect(page.next_cursor).not.toBe('');
  });

  it('always carries at least one design, however large', async () => {
    const page = await designs([designOf(1, DESIGN_PAGE_MAX_BYTES), designOf(2, 10)]).service.list(principal, {
      workspace_id: WORKSPACE,
    });
    expect(page.designs.map((d) => d.name)).toEqual(['Design 1']);
    expect(page.next_cursor).not.toBe('');
  });

  it('takes at most `limit` designs, with a cursor only when more are left', async () => {
    const small = [designOf(1, 10), designOf(2, 10), designOf(3, 10)];
    const first = await designs(small).service.list(principal, { workspace_id: WORKSPACE, limit: 2 });
    expect(first.designs).toHaveLength(2);
    expect(first.next_cursor).not.toBe('');
    const last = await designs(small.slice(0, 2)).service.list(principal, { workspace_id: WORKSPACE, limit: 2 });
    expect(last.next_cursor).toBe('');
  });
});
