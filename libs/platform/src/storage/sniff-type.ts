import { fileTypeFromBuffer } from 'file-type';

/** Bytes from the start of a file its type is sniffed from (and image dimensions read from). */
export const SNIFF_HEAD_BYTES = 512 * 1024;

/** Types refused whatever the instance allows: active content a browser would run, and executables. */
const REFUSED_TYPES = new Set([
  'image/svg+xml',
  'text/html',
  'application/xhtml+xml',
  'application/x-msdownload',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/x-executable',
  'application/vnd.microsoft.portable-executable',
  'application/java-archive',
  'application/x-sh',
]);

export type Sniffed = { mimeType: string } | { refused: string };

/** The real type from the leading bytes; SVG, HTML, scripts and executables are refused. */
export async function sniffType(head: Buffer): Promise<Sniffed> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) {
    if (REFUSED_TYPES.has(detected.mime) || detected.ext === 'exe') return { refused: `${detected.mime} files are not accepted` };
    if (detected.mime === 'application/xml' && looksLikeMarkup(head)) return { refused: 'SVG and HTML files are not accepted' };
    return { mimeType: detected.mime };
  }
  if (looksLikeMarkup(head)) return { refused: 'SVG and HTML files are not accepted' };
  if (head.subarray(0, 2).toString('latin1') === '#!') return { refused: 'scripts are not accepted' };
  return { mimeType: 'application/octet-stream' };
}

function looksLikeMarkup(head: Buffer): boolean {
  const text = head
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return (
    /<svg[\s>]|<!doctype\s+html|<html[\s>]|<script[\s>]|<!doctype\s+svg/.test(text) || (text.startsWith('<?xml') && text.includes('<svg'))
  );
}
