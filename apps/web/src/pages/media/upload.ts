import { PlatformProblem, unwrap, type PlatformClient, type Schema } from '@social/sdk';

export type MediaItem = Schema<'MediaItem'>;
type UploadTarget = Schema<'MediaUploadTarget'>;

/**
 * The signed upload flow: open a session, send the raw bytes to the session's signed URL (no bearer token: the URL
 * is the credential), complete it. The bytes go through XMLHttpRequest because fetch cannot report upload progress.
 */
export async function uploadFile(
  api: PlatformClient,
  workspaceId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<MediaItem> {
  const session = await unwrap(
    api.POST('/media/upload-session', {
      body: { workspace_id: workspaceId, filename: file.name, size: file.size, ...(file.type ? { mime_type: file.type } : {}) },
    }),
  );
  const id = session.media_id;
  if (session.deduped) return unwrap(api.GET('/media/{id}', { params: { path: { id } } }));
  await sendBytes(session.upload, file, onProgress);
  return unwrap(api.POST('/media/upload-session/{id}/complete', { params: { path: { id } }, body: { workspace_id: workspaceId } }));
}

function sendBytes(target: UploadTarget, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(target.method || 'PUT', target.url);
    for (const [name, value] of Object.entries(target.headers as Record<string, string>)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      reject(PlatformProblem.fromResponse(new Response(null, { status: request.status }), parseJson(request.responseText)));
    };
    // The TypeError is what fetch rejects with when the server is unreachable: ProblemMessage words it so.
    request.onerror = () => reject(new TypeError('upload failed'));
    request.send(file);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
