import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/** A streamed request body and its content type. */
export interface StreamedBody {
  body: AsyncIterable<Uint8Array>;
  contentType: string;
}

const quoted = (value: string) => value.replace(/["\r\n\\]/g, '_');

/**
 * A multipart/form-data body built as a stream (RFC 7578): the text fields, then one file whose bytes are
 * passed on as they are read, so a large video is never held in memory (FormData would buffer it whole).
 */
export function multipartStream(
  fields: Record<string, string>,
  file: { name: string; filename: string; contentType: string; stream: Readable },
): StreamedBody {
  const boundary = `----social-${randomBytes(16).toString('hex')}`;
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`, 'utf8');
    }
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; ` +
        `filename="${quoted(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      'utf8',
    );
    for await (const chunk of file.stream as AsyncIterable<Uint8Array>) yield chunk;
    yield Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  }
  return { body: body(), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A file name for an upload, by type (`upload.jpg`); networks read the type from it as well as from the part's header. */
export function uploadFilename(mimeType: string): string {
  const extensions: Record<string, string> = {
    'image/jpeg': 'jpg',
    'image/png': 'png',
    'image/webp': 'webp',
    'image/gif': 'gif',
    'video/mp4': 'mp4',
    'video/quicktime': 'mov',
    'video/webm': 'webm',
  };
  return `upload.${extensions[mimeType] ?? 'bin'}`;
}

/** How long an upload of `size` bytes may take: the call's own bound plus one second per MiB (slow links). */
export const uploadTimeoutMs = (baseMs: number, size: number) => Math.max(baseMs, 30_000) + Math.ceil(size / (1024 * 1024)) * 1_000;

/** One file of a multipart body with several. */
export interface StreamedFile {
  name: string;
  filename: string;
  contentType: string;
  stream: Readable;
}

/**
 * multipartStream with several files (Discord's `files[n]`, Telegram's media group): the text fields, then each
 * file in order, passed on as it is read, so none is held whole. The streams are opened by the caller before the
 * request goes out (storage that cannot answer then fails the call before anything was sent).
 */
export function multipartFilesStream(fields: Record<string, string>, files: StreamedFile[]): StreamedBody {
  const boundary = `----social-${randomBytes(16).toString('hex')}`;
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`, 'utf8');
    }
    for (const file of files) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; ` +
          `filename="${quoted(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
        'utf8',
      );
      for await (const chunk of file.stream as AsyncIterable<Uint8Array>) yield chunk;
      yield Buffer.from('\r\n', 'utf8');
    }
    yield Buffer.from(`--${boundary}--\r\n`, 'utf8');
  }
  return { body: body(), contentType: `multipart/form-data; boundary=${boundary}` };
}
