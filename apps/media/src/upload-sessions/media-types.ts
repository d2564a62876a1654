const VIDEO_EXTENSIONS = new Set(['mp4', 'm4v', 'mov', 'webm', 'mkv', 'avi', 'mpeg', 'mpg', 'ogv', '3gp']);
const TYPES_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heic',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  pdf: 'application/pdf',
};

const extensionOf = (filename: string) => /\.([a-z0-9]{1,8})$/i.exec(filename)?.[1]?.toLowerCase() ?? '';

/** Videos get the larger upload limit: a `video/*` type, or a video file extension when no type is given. */
export function isVideo(mimeType: string, filename: string): boolean {
  if (mimeType) return mimeType.startsWith('video/');
  return VIDEO_EXTENSIONS.has(extensionOf(filename));
}

/** The Content-Type the client sends the bytes with: as declared, else from the extension, else octet-stream. */
export function contentTypeFor(mimeType: string, filename: string): string {
  return mimeType || TYPES_BY_EXTENSION[extensionOf(filename)] || 'application/octet-stream';
}

export type MediaFamily = 'image' | 'video' | 'audio' | 'document';

const DOCUMENT_TYPES = new Set(['application/pdf', 'text/plain', 'application/msword', 'application/rtf', 'application/epub+zip']);

/** The family of a type (docs/decisions.md), or null for one outside them (e.g. application/octet-stream). */
export function familyOf(mimeType: string): MediaFamily | null {
  const type = mimeType.toLowerCase();
  for (const family of ['image', 'video', 'audio'] as const) if (type.startsWith(`${family}/`)) return family;
  if (
    DOCUMENT_TYPES.has(type) ||
    type.startsWith('application/vnd.openxmlformats-officedocument.') ||
    type.startsWith('application/vnd.oasis.opendocument.')
  ) {
    return 'document';
  }
  return null;
}

/** The family the uploader declared: the session's type, else the filename's extension; null when neither says. */
export function declaredFamily(declaredMimeType: string, filename: string): MediaFamily | null {
  return familyOf(declaredMimeType || TYPES_BY_EXTENSION[extensionOf(filename)] || '');
}
