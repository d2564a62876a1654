import type { Readable } from 'node:stream';
import type { OutgoingMedia } from './social-provider.js';

/**
 * Consecutive byte ranges of a media item read from ONE storage stream, for uploads sent in chunks (YouTube's resumable
 * protocol, TikTok's chunked direct post): storage keeps reading ahead across chunk boundaries instead of a new read
 * being opened, and waited for, at the start of every chunk. `take(n)` passes on the next n bytes as they are read;
 * asked for any other position (the server kept less than was sent, or an upload resumed elsewhere), it reopens the
 * item there. Never holds more than storage's own read-ahead.
 */
export class ChunkedReader {
  private stream: Readable | null = null;
  private iterator: AsyncIterator<Uint8Array> | null = null;
  /** Bytes read past the end of the last chunk taken, kept for the next. */
  private carried: Uint8Array | null = null;
  /** The offset of the next byte the open stream gives (carried bytes first). */
  private position = -1;

  constructor(private readonly media: OutgoingMedia) {}

  /**
   * Bytes `start`..`start + length - 1`. Opens storage first (throwing a DeliveryError when it cannot be read), so a
   * chunk's request goes out only once its source answers. The body must be read to its end (or `close` called).
   */
  async take(start: number, length: number): Promise<AsyncIterable<Uint8Array>> {
    if (start !== this.position || !this.iterator) await this.reopen(start);
    this.position = start + length;
    return this.body(length);
  }

  /** Stops reading (after a failed request: the next `take` reopens where the server says). */
  close(): void {
    this.stream?.destroy();
    this.stream = null;
    this.iterator = null;
    this.carried = null;
    this.position = -1;
  }

  private async reopen(start: number): Promise<void> {
    this.close();
    this.stream = await this.media.open({ start, end: this.media.size - 1 });
    this.iterator = (this.stream as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  }

  private async *body(length: number): AsyncGenerator<Uint8Array> {
    let left = length;
    while (left > 0) {
      let chunk = this.carried;
      this.carried = null;
      if (!chunk) {
        const next = await this.iterator!.next();
        if (next.done) throw new Error(`storage ended ${left} bytes before the chunk's end`);
        chunk = next.value;
      }
      if (chunk.length > left) {
        this.carried = chunk.subarray(left);
        chunk = chunk.subarray(0, left);
      }
      left -= chunk.length;
      yield chunk;
    }
  }
}
