import { expect } from '@jest/globals';
import { call } from '../support/api.js';

/** A valid document: a video track playing `assetIds` one after another, and a text track. */
export function videoDocument(assetIds: string[] = [], extra: Record<string, unknown> = {}) {
  return {
    schema_version: 1,
    width_px: 1920,
    height_px: 1080,
    frame_rate: 29.97,
    duration_ms: 60_000,
    tracks: [
      {
        id: 'v1',
        kind: 'video',
        name: 'Main',
        clips: assetIds.map((assetId, i) => ({ id: `c${i}`, asset_id: assetId, start_ms: i * 5_000, duration_ms: 5_000, source_start_ms: 0, volume: 1 })),
      },
      { id: 't1', kind: 'text', clips: [{ id: 'title', start_ms: 0, duration_ms: 3_000, text: 'Hello' }] },
    ],
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

export const reserveAsset = (token: string, projectId: string, body: unknown) => call('POST', `/video-projects/${projectId}/assets`, { token, body });

export async function newAsset(token: string, projectId: string, workspaceId: string, extra: Record<string, unknown> = {}) {
  const response = await reserveAsset(token, projectId, { workspace_id: workspaceId, original_filename: 'clip.mp4', mime_type: 'video/mp4', size: 4_200, ...extra });
  expect(response.status).toBe(201);
  return response.body;
}
