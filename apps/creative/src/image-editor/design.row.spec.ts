import { describe, expect, it } from '@jest/globals';
import type { ImageEditorDocument } from '@social/contracts';
import { DesignRow, RevisionRow, toDesign, toRevision, toRevisionSummary } from './design.row.js';

const document = { width_px: 10, height_px: 10, pages: [] } as unknown as ImageEditorDocument;

const revision = (values: Partial<RevisionRow> = {}): RevisionRow => ({
  id: 'r1',
  designId: 'd1',
  revision: 4,
  kind: 'autosave',
  name: '',
  document,
  coverPreviewMediaId: 'm1',
  actorUserId: 'u1',
  actorName: 'Ada',
  createdAt: new Date('2030-01-01T00:00:00.000Z'),
  expiresAt: new Date('2030-01-08T00:00:00.000Z'),
  ...values,
});

describe('design rows', () => {
  it('publish a design with its head revision and preview', () => {
    const row: DesignRow = {
      id: 'd1',
      workspaceId: 'w1',
      name: 'Poster',
      document,
      headRevisionId: 'r1',
      lastRevision: 4,
      previewMediaId: 'm1',
      createdAt: new Date('2030-01-01T00:00:00.000Z'),
      updatedAt: new Date('2030-01-02T00:00:00.000Z'),
    };
    expect(toDesign(row)).toEqual({
      id: 'd1',
      workspace_id: 'w1',
      name: 'Poster',
      document,
      head_revision_id: 'r1',
      preview_media_id: 'm1',
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-02T00:00:00.000Z',
    });
  });
});

describe('revision rows', () => {
  it('tell the caller whether they made the revision, naming the author either way', () => {
    expect(toRevisionSummary(revision(), 'u1').actor).toEqual({ is_current_user: true, name: 'Ada' });
    expect(toRevisionSummary(revision(), 'u2').actor).toEqual({ is_current_user: false, name: 'Ada' });
  });

  it('say when an autosave expires, and "" for a checkpoint that is kept', () => {
    expect(toRevisionSummary(revision(), 'u1')).toEqual({
      id: 'r1',
      revision: 4,
      kind: 'autosave',
      name: '',
      actor: { is_current_user: true, name: 'Ada' },
      created_at: '2030-01-01T00:00:00.000Z',
      expires_at: '2030-01-08T00:00:00.000Z',
    });
    expect(toRevisionSummary(revision({ kind: 'checkpoint', expiresAt: null }), 'u1').expires_at).toBe('');
  });

  it('carry the document and cover with the summary', () => {
    expect(toRevision(revision(), 'u2')).toEqual({
      cover_preview_media_id: 'm1',
      document,
      summary: toRevisionSummary(revision(), 'u2'),
    });
  });
});
