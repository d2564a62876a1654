import { expect } from '@jest/globals';
import { call } from '../support/api.js';

/**
 * A document as an editor might keep it (the platform prescribes no shape, docs/decisions.md): a timeline
 * whose video clips name the project assets `assetIds` (so they are `required`), and a title.
 */
export function videoDocument(assetIds: string[] = [], extra: Record<string, unknown> = {}) {
  return {
    version: 1,
    canvas: { width: 1920, height: 1080, fps: 29.97, background: null },
    timeline: {
      duration_ms: 60_000,
      tracks: [
        {
          id: 'v1',
          kind: 'video',
          name: 'Main',
          clips: assetIds.map((assetId, i) => ({
            id: `c${i}`,
            source: { project_asset_id: assetId },
            in_ms: i * 5_000,
            out_ms: (i + 1) * 5_000,
            gain: 1,
          })),
        },
        {
          id: 't1',
          kind: 'text',
          clips: [{ id: 'title', in_ms: 0, out_ms: 3_000, text: 'Hello', style: { font: 'Inter', weight: 700, shadow: [0, 2, 4] } }],
        },
      ],
    },
    ...extra,
  };
}

export const createProject = (token: string, body: unknown) => call('POST', '/video-projects', { token, body });
export const getProject = (token: string, id: string) => call('GET', `/video-projects/${id}`, { token });
export const replaceProject = (token: string, id: string, body: unknown) => call('PUT', `/video-projects/${id}`, { token, body });

export async function newProject(token: string, workspaceId: string, name = 'Launch film', document: unknown = videoDocument()) {
  const response = await createProject(token, { workspace_id: workspaceId, name, document });
  expect(response.status).toBe(201);
  return response.body;
}

export const reserveAsset = (token: string, projectId: string, body: unknown) =>
  call('POST', `/video-projects/${projectId}/assets`, { token, body });

export async function newAsset(token: string, projectId: string, workspaceId: string, extra: Record<string, unknown> = {}) {
  const response = await reserveAsset(token, projectId, {
    workspace_id: workspaceId,
    original_filename: 'clip.mp4',
    mime_type: 'video/mp4',
    size: 4_200,
    ...extra,
  });
  expect(response.status).toBe(201);
  return response.body;
}
