/**
 * A third party's answer as bytes, read chunk by chunk and abandoned past
 * `maxBytes` (undefined then), so a huge or endless body never fills memory.
 */
export async function readLimitedBytes(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    // Leaving the loop cancels the rest of the stream.
    if (size > maxBytes) return undefined;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** readLimitedBytes as UTF-8 text. */
export async function readLimited(response: Response, maxBytes: number): Promise<string | undefined> {
  return (await readLimitedBytes(response, maxBytes))?.toString('utf8');
}
