import { describe, expect, it } from '@jest/globals';
import { Problem } from '@social/platform';
import type { EntityManager } from 'typeorm';
import { requireNotTrashed, syncStateOf, toSummary, toVideoProject, VideoProjectRow } from './video-project.row.js';

const ASSET_A = '0190a000-0000-7000-8000-00000000a001';
const ASSET_B = '0190a000-0000-7000-8000-00000000a002';
const UNKNOWN = '0190a000-0000-7000-8000-00000000ffff';

const row = (values: Partial<VideoProjectRow> = {}): VideoProjectRow => ({
  id: 'p1',
  workspaceId: 'w1',
  name: 'Teaser',
  documentJson: '{"tracks":[]}',
  headRevision: 3,
  syncStatus: 'synced',
  attentionReason: '',
  previewObjectKey: '',
  createdBy: 'u1',
  updatedBy: 'u2',
  createdAt: new Date('2030-01-01T00:00:00.000Z'),
  updatedAt: new Date('2030-01-02T00:00:00.000Z'),
  trashedAt: null,
  retentionExpiresAt: null,
  ...values,
});

/** A transaction whose project_assets hold `assets`; counts the queries made. */
function withAssets(assets: Array<{ id: string; status: string }>) {
  const calls: unknown[] = [];
  const db = {
    query: async (_sql: string, params: unknown[]) => {
      calls.push(params);
      return assets;
    },
  } as unknown as EntityManager;
  return { db, calls };
}

const documentNaming = (...ids: string[]) => JSON.stringify({ tracks: ids.map((id) => ({ clips: [{ asset_id: id }] })) });

describe('video project rows', () => {
  it('publish a summary with the users who created and last changed it', () => {
    expect(toSummary(row())).toEqual({
      id: 'p1',
      workspace_id: 'w1',
      name: 'Teaser',
      head_revision: 3,
      sync_status: 'synced',
      attention_reason: '',
      preview_object_key: '',
      created_at: '2030-01-01T00:00:00.000Z',
      created_by_user_id: 'u1',
      updated_at: '2030-01-02T00:00:00.000Z',
      updated_by_user_id: 'u2',
      trashed_at: '',
      retention_expires_at: '',
    });
  });

  it('say when a trashed project is purged', () => {
    const trashed = toSummary(
      row({ trashedAt: new Date('2030-02-01T00:00:00.000Z'), retentionExpiresAt: new Date('2030-03-03T00:00:00.000Z') }),
    );
    expect(trashed).toMatchObject({ trashed_at: '2030-02-01T00:00:00.000Z', retention_expires_at: '2030-03-03T00:00:00.000Z' });
  });

  it("carry the row's document, or the one in hand", () => {
    expect(toVideoProject(row({ documentJson: '{"fps":30}' })).document).toEqual({ fps: 30 });
    expect(toVideoProject(row({ documentJson: undefined }), { fps: 25 }).document).toEqual({ fps: 25 });
  });

  it('refuse changes to a trashed project (409 project_trashed)', () => {
    expect(() => requireNotTrashed(row())).not.toThrow();
    let refusal: unknown;
    try {
      requireNotTrashed(row({ trashedAt: new Date() }));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(Problem);
    expect(refusal).toMatchObject({ status: 409, code: 'project_trashed' });
  });
});

describe('the sync status of a head document', () => {
  it('is synced, without asking, when the document names no asset', async () => {
    const { db, calls } = withAssets([{ id: ASSET_A, status: 'failed' }]);
    expect(await syncStateOf(db, 'p1', '{"tracks":[]}')).toEqual({ status: 'synced', reason: '' });
    expect(calls).toEqual([]);
  });

  it('is synced when every named asset is ready', async () => {
    const { db, calls } = withAssets([
      { id: ASSET_A, status: 'ready' },
      { id: ASSET_B, status: 'ready' },
    ]);
    expect(await syncStateOf(db, 'p1', documentNaming(ASSET_A, ASSET_B))).toEqual({ status: 'synced', reason: '' });
    expect(calls).toEqual([['p1']]);
  });

  it('is pending while a named asset is not ready', async () => {
    const { db } = withAssets([
      { id: ASSET_A, status: 'ready' },
      { id: ASSET_B, status: 'pending' },
    ]);
    expect(await syncStateOf(db, 'p1', documentNaming(ASSET_A, ASSET_B))).toEqual({ status: 'pending', reason: '' });
  });

  it('needs attention when a named asset failed, whatever the others', async () => {
    const { db } = withAssets([
      { id: ASSET_A, status: 'failed' },
      { id: ASSET_B, status: 'pending' },
    ]);
    expect(await syncStateOf(db, 'p1', documentNaming(ASSET_A, ASSET_B))).toEqual({ status: 'attention', reason: 'asset_failed' });
  });

  it("counts neither assets the document does not name nor ids that are not the project's assets", async () => {
    const { db } = withAssets([
      { id: ASSET_A, status: 'ready' },
      { id: ASSET_B, status: 'failed' },
    ]);
    expect(await syncStateOf(db, 'p1', documentNaming(ASSET_A, UNKNOWN))).toEqual({ status: 'synced', reason: '' });
  });
});
