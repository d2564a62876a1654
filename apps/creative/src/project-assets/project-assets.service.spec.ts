import { describe, expect, it } from '@jest/globals';
import type { CreateProjectAssetRequest, Principal } from '@social/contracts';
import { AccessControl } from '@social/platform';
import type { DataSource } from 'typeorm';
import type { VideoProjectRow } from '../video-projects/video-project.row.js';
import { ProjectAssetsService } from './project-assets.service.js';

const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const ASSET = '0190a000-0000-7000-8000-0000000000c1';
const principal: Principal = { userId: 'u1', sessionId: 's', isAdmin: false, tokenKind: 'session', workspaceId: null };

/** The asset row media's check reads (or none); a transaction must not be reached. */
function assets(checkRow?: { status: string; project_id: string; size: string; trashed: boolean }) {
  const dataSource = {
    query: async () => (checkRow ? [checkRow] : []),
    transaction: async () => {
      throw new Error('no write was expected');
    },
  } as unknown as DataSource;
  const project = { id: 'p1', workspaceId: WORKSPACE, documentJson: '{}' } as VideoProjectRow;
  const access = { requireVisible: async () => project } as unknown as AccessControl;
  return new ProjectAssetsService(dataSource, access);
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

describe("media's check of a project asset (E17)", () => {
  it('lets bytes through for a pending asset of a live project', async () => {
    expect(await assets({ status: 'pending', project_id: 'p1', size: '1048576', trashed: false }).check(WORKSPACE, ASSET)).toEqual({
      project_asset_id: ASSET,
      project_id: 'p1',
      size: 1_048_576,
    });
  });

  it('refuses an asset whose project is in the trash', async () => {
    expect(
      await refusalOf(assets({ status: 'pending', project_id: 'p1', size: '1', trashed: true }).check(WORKSPACE, ASSET)),
    ).toMatchObject({
      status: 409,
      code: 'project_trashed',
    });
  });

  it.each(['ready', 'failed', 'uploading'])('refuses an asset that is %s: new bytes need a new asset', async (status) => {
    expect(await refusalOf(assets({ status, project_id: 'p1', size: '1', trashed: false }).check(WORKSPACE, ASSET))).toMatchObject({
      status: 409,
      code: 'project_asset_not_pending',
      detail: `The project asset is ${status}; reserve a new one for other bytes.`,
    });
  });

  it('answers an asset of another workspace as missing', async () => {
    expect(await refusalOf(assets().check(WORKSPACE, ASSET))).toMatchObject({ status: 404 });
  });
});

describe('reserving a project asset (E20)', () => {
  const input = (values: Partial<CreateProjectAssetRequest>): CreateProjectAssetRequest => ({
    workspace_id: WORKSPACE,
    original_filename: 'clip.mp4',
    mime_type: 'video/mp4',
    size: 10,
    ...values,
  });

  it("must name the project's own workspace (in any case)", async () => {
    const other = '0190a000-0000-7000-8000-0000000000a2';
    expect(await refusalOf(assets().create(principal, 'p1', input({ workspace_id: other })))).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.workspace_id', value: other }] },
    });
    // The same workspace in upper case goes on to the reservation (a transaction, not reached here).
    expect(await refusalOf(assets().create(principal, 'p1', input({ workspace_id: WORKSPACE.toUpperCase() })))).toEqual(
      new Error('no write was expected'),
    );
  });

  it('keeps at most 16 KiB of preparation as JSON', async () => {
    const preparation = { notes: 'x'.repeat(16 * 1024) };
    expect(await refusalOf(assets().create(principal, 'p1', input({ preparation })))).toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.preparation', message: 'must be at most 16384 bytes of JSON' }] },
    });
    const fits = { notes: 'x'.repeat(16 * 1024 - '{"notes":""}'.length) };
    expect(await refusalOf(assets().create(principal, 'p1', input({ preparation: fits })))).toEqual(new Error('no write was expected'));
  });
});
