import { PlatformProblem, unwrap, type PlatformClient, type Schema } from '@social/sdk';
import { apiOrigin } from './origin';

export type MediaItem = Schema<'MediaItem'>;

/**
 * Puts a dropped or picked file into the workspace's library through the signed upload (the composer and the media
 * library both): open a session (its SHA-256 lets the library reuse a file it already has), PUT the bytes to the
 * signed URL with progress (no bearer token: the URL is the credential), complete it. Answers the library item.
 */
export async function uploadToLibrary(
  api: PlatformClient,
  workspaceId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<MediaItem> {
  const sha256 = await digest(file);
  const session = await unwrap(
    api.POST('/media/upload-session', {
      params: { header: { 'Idempotency-Key': `${workspaceId}:${sha256}:${file.name}` } },
      body: { workspace_id: workspaceId, filename: file.name, size: file.size, sha256, ...(file.type ? { mime_type: file.type } : {}) },
    }),
  );
  if (session.deduped) {
    onProgress(1);
    return unwrap(api.GET('/media/{id}', { params: { path: { id: session.media_id } } }));
  }
  await put(session.upload, file, onProgress);
  return unwrap(
    api.POST('/media/upload-session/{id}/complete', { params: { path: { id: session.media_id } }, body: { workspace_id: workspaceId } }),
  );
}

async function digest(file: File): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** XMLHttpRequest, not fetch: only it reports upload progress. The signed URL carries its own authorization. */
function put(target: Schema<'MediaUploadTarget'>, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(target.method || 'PUT', uploadAddress(target.url));
    for (const [name, value] of Object.entries(target.headers ?? {})) {
      // The browser sets these itself and refuses to be told.
      if (!['content-length', 'host'].includes(name.toLowerCase())) request.setRequestHeader(name, String(value));
    }
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => {
      // 409: the bytes are already in (a retried upload); completing answers the item.
      if ((request.status >= 200 && request.status < 300) || request.status === 409) {
        onProgress(1);
        resolve();
        return;
      }
      reject(problemOf(request));
    };
    request.onerror = () => reject(new TypeError('The upload could not reach the server.'));
    request.send(file);
  });
}

/**
 * The gateway's own upload route is signed with its configured public address, which may name the same gateway
 * differently than the console was opened by (127.0.0.1 or localhost): that route is sent to the API origin the
 * console already talks to, so no cross-origin request is needed. Any other URL (object storage) is used as given.
 */
function uploadAddress(signed: string): string {
  const url = new URL(signed, apiOrigin());
  return /^\/media\/upload-session\/[^/]+\/content$/.test(url.pathname) ? `${apiOrigin()}${url.pathname}${url.search}` : url.toString();
}

function problemOf(request: XMLHttpRequest): Error {
  try {
    const body = JSON.parse(request.responseText) as { detail?: string };
    return PlatformProblem.fromResponse(new Response(null, { status: request.status }), body);
  } catch {
    return new Error(`The upload was refused (HTTP ${request.status}).`);
  }
}
