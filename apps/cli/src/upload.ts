import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Readable } from 'node:stream';
import { PlatformProblem, unwrap, type PlatformClient, type Schema } from '@social/sdk';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { ExitCode } from './exit-codes.js';

/** What the file's name suggests; the platform sniffs the real type from the bytes and refuses a mismatch. */
const TYPES_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
};

/**
 * Puts a file into the workspace's media library through the upload-session flow: open a session (with the
 * file's size and SHA-256, so a file already in the library is reused and nothing is sent), PUT the bytes to the
 * signed URL, complete. The session carries an Idempotency-Key: a retried attach reuses its session.
 */
export async function uploadFile(
  context: CliContext,
  client: PlatformClient,
  workspaceId: string,
  path: string,
  idempotencyKey: string,
): Promise<Schema<'MediaItem'> | { id: string; deduped: true }> {
  const { size, sha256 } = await measure(path);
  const mimeType = TYPES_BY_EXTENSION[extname(path).toLowerCase()];
  const session = await unwrap(
    client.POST('/media/upload-session', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: { workspace_id: workspaceId, filename: basename(path), size, sha256, ...(mimeType ? { mime_type: mimeType } : {}) },
    }),
  );
  if (session.deduped) return { id: session.media_id, deduped: true };
  const put = await context.fetchWithRetries(session.upload.url, () => ({
    method: session.upload.method || 'PUT',
    headers: { 'content-length': String(size), ...session.upload.headers },
    body: Readable.toWeb(createReadStream(path)) as ReadableStream,
    duplex: 'half',
  }));
  // A retried attach may find its session's bytes already in (409): completing it again answers the same item.
  if (!put.ok && put.status !== 409) throw PlatformProblem.fromResponse(put, await bodyOf(put));
  return unwrap(
    client.POST('/media/upload-session/{id}/complete', { params: { path: { id: session.media_id } }, body: { workspace_id: workspaceId } }),
  );
}

async function measure(path: string): Promise<{ size: number; sha256: string }> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
    size = info.size;
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${reasonOf(error)}`, ExitCode.usage);
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { size, sha256: hash.digest('hex') };
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const reasonOf = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  return (error as Error).message;
};
