import { toDeliveryFailure } from '../delivery-failure.js';
import { ProviderError } from '../provider-error.js';
import type { ProviderAnswer } from '../provider-http.js';
import { ChunkedReader } from '../chunked-reader.js';
import { DeliveryError, type OutgoingMedia } from '../social-provider.js';

/**
 * The bytes of one video through YouTube's resumable upload protocol (README.md beside this file), once its session
 * is open: `PUT`s of `chunkBytes` each, `Content-Range: bytes a-b/total`, every chunk read from storage as it is sent
 * (one read running on from chunk to chunk, ChunkedReader; never the whole video). `308 Resume Incomplete` with
 * `Range: bytes=0-N` says the server holds bytes 0..N. After an interrupted chunk (no answer, 5xx, 429, a timeout,
 * a 401 once the grant is renewed) the session is asked how far it got (`Content-Range: bytes *\/total`, empty body)
 * and the upload goes on from N+1 in the same session: a second video is never started. The answer to the last byte
 * is the video resource.
 */

/** Non-final chunks must be a multiple of 256 KiB. */
export const CHUNK_UNIT = 256 * 1024;
/** 16 MiB: one chunk's request is cheap to redo after an interruption, and the number of requests stays small. */
export const DEFAULT_CHUNK_BYTES = 64 * CHUNK_UNIT;

export interface UploadTuning {
  /** A multiple of CHUNK_UNIT. */
  chunkBytes: number;
  /** Status queries after one interruption before the delivery gives up (each after a longer wait). */
  resumeAttempts: number;
  /** The first wait before a status query; doubled for each further one. */
  backoffMs: number;
}

export const DEFAULT_UPLOAD_TUNING: UploadTuning = { chunkBytes: DEFAULT_CHUNK_BYTES, resumeAttempts: 5, backoffMs: 1_000 };

/** How the upload reaches the session: one PUT, failing with a ProviderError (quota refusals already as 429). */
export interface UploadTransport {
  put(
    sessionUri: string,
    request: { headers: Record<string, string>; body?: AsyncIterable<Uint8Array>; contentType: string; size: number },
  ): Promise<ProviderAnswer>;
  /** Renews the grant after a 401; throws a DeliveryError (rejected `auth`) when it cannot be. */
  renew(): Promise<void>;
}

const PLATFORM = 'youtube';
/** The answers that carry the video resource: the upload is complete. */
const DONE = new Set([200, 201]);
const RESUME_INCOMPLETE = 308;

/** The next byte the server wants after a 308: its `Range: bytes=0-N` end + 1, or 0 when it names no range (nothing kept). */
export function nextOffset(headers: Headers): number {
  const match = /^bytes=0-(\d+)$/.exec(headers.get('range')?.trim() ?? '');
  return match ? Number(match[1]) + 1 : 0;
}

type Failure = 'interrupted' | 'unauthorized' | 'gone' | 'refused';

function failureOf(error: unknown): Failure {
  if (!(error instanceof ProviderError)) return 'refused';
  const status = error.call?.status ?? 0;
  if (status === 401) return 'unauthorized';
  if (status === 404 || status === 410) return 'gone';
  if (status === 0 || status === 429 || status >= 500) return 'interrupted';
  return 'refused';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Uploads `media` into the open session; answers the video resource YouTube made of it. Throws a DeliveryError. */
export async function uploadInSession(
  transport: UploadTransport,
  sessionUri: string,
  media: OutgoingMedia,
  tuning: UploadTuning,
): Promise<unknown> {
  const total = media.size;
  let offset = 0;
  /** The last byte may be at the server though no answer said so: only a status query tells (else the outcome is unknown). */
  let lastByteInDoubt = false;
  /** Where the upload stood when the current run of interruptions began: progress past it starts a fresh run. */
  let attempts = 0;
  let progressMark = 0;

  const giveUp = (error: unknown, what: Failure): DeliveryError => {
    if (lastByteInDoubt) {
      return new DeliveryError({
        outcome: 'ambiguous',
        code: 'provider_connection_lost',
        message: 'youtube took the whole video but its answer was lost; the video will be looked up before any new attempt.',
        httpStatus: error instanceof ProviderError ? (error.call?.status ?? 0) : 0,
      });
    }
    if (what === 'gone') {
      return new DeliveryError({
        outcome: 'retryable',
        code: 'upload_session_expired',
        message: 'youtube no longer knows the upload session; the video will be uploaded again later.',
        httpStatus: error instanceof ProviderError ? (error.call?.status ?? 0) : 0,
      });
    }
    if (what === 'interrupted') {
      const failure = toDeliveryFailure(error, PLATFORM, false);
      return new DeliveryError(
        failure.outcome === 'retryable'
          ? failure
          : {
              outcome: 'retryable',
              code: 'upload_interrupted',
              message: 'The upload to youtube broke off; trying again later.',
              httpStatus: 0,
            },
      );
    }
    return new DeliveryError(toDeliveryFailure(error, PLATFORM, false));
  };

  /** After an interruption: waits, then asks the session how far it got, until it answers or the attempts run out. */
  const recover = async (cause: unknown, what: Failure): Promise<{ done: unknown } | { offset: number }> => {
    let error = cause;
    let failure = what;
    for (;;) {
      if (failure === 'gone' || failure === 'refused') throw giveUp(error, failure);
      if (offset > progressMark) {
        progressMark = offset;
        attempts = 0;
      }
      if (attempts >= tuning.resumeAttempts) throw giveUp(error, failure);
      attempts += 1;
      if (failure === 'unauthorized') await transport.renew();
      else await sleep(tuning.backoffMs * 2 ** (attempts - 1));
      try {
        const answer = await transport.put(sessionUri, {
          headers: { 'content-range': `bytes */${total}` },
          contentType: media.mimeType,
          size: 0,
        });
        if (DONE.has(answer.status)) return { done: answer.body };
        if (answer.status === RESUME_INCOMPLETE) {
          lastByteInDoubt = false;
          return { offset: nextOffset(answer.headers) };
        }
        throw new ProviderError('unavailable', `youtube answered the status query with HTTP ${answer.status}.`, undefined, {
          status: answer.status,
          sent: true,
        });
      } catch (thrown) {
        if (thrown instanceof DeliveryError) throw thrown;
        error = thrown;
        failure = failureOf(thrown);
      }
    }
  };

  // One storage read runs on from chunk to chunk; it is reopened only where the server says it stopped.
  const source = new ChunkedReader(media);
  try {
    while (offset < total) {
      const end = Math.min(offset + tuning.chunkBytes, total) - 1;
      const last = end === total - 1;
      const body = await source.take(offset, end - offset + 1);
      try {
        const answer = await transport.put(sessionUri, {
          headers: { 'content-range': `bytes ${offset}-${end}/${total}` },
          body,
          contentType: media.mimeType,
          size: end - offset + 1,
        });
        if (DONE.has(answer.status)) return answer.body;
        if (answer.status !== RESUME_INCOMPLETE) {
          throw new ProviderError('unavailable', `youtube answered a chunk with HTTP ${answer.status}.`, undefined, {
            status: answer.status,
            sent: true,
          });
        }
        offset = nextOffset(answer.headers);
      } catch (error) {
        source.close();
        if (error instanceof DeliveryError) throw error;
        const failure = failureOf(error);
        // Only a request that may have carried the last byte without a refusal can have made the video.
        if (last && failure === 'interrupted') lastByteInDoubt = true;
        const recovered = await recover(error, failure);
        if ('done' in recovered) return recovered.done;
        offset = recovered.offset;
      }
    }
    // The server says it holds every byte but answered no video: ask again (the answer is the resource).
    lastByteInDoubt = true;
    const recovered = await recover(
      new ProviderError('unavailable', 'youtube holds the whole video but answered no resource.', undefined, { status: 0, sent: true }),
      'interrupted',
    );
    if ('done' in recovered) return recovered.done;
    throw giveUp(
      new ProviderError('unavailable', 'youtube did not finish the upload.', undefined, { status: 0, sent: true }),
      'interrupted',
    );
  } finally {
    source.close();
  }
}
