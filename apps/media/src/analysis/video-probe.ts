import { spawn } from 'node:child_process';

/** What probing a video tells (dimensions as displayed: a rotated video's are swapped). */
export interface VideoFacts {
  durationMs: number;
  /** Frames per second, 3 decimals (29.97); 0 when the stream does not say. */
  frameRate: number;
  width: number;
  height: number;
}

/**
 * Why a tool run ended badly: `refused` (the tool read the input and says it is not a video it can
 * decode: the analysis fails for good), `missing` (the binary is not installed), `timeout`.
 */
export class ToolFailure extends Error {
  constructor(
    readonly kind: 'refused' | 'missing' | 'timeout' | 'aborted',
    message: string,
  ) {
    super(message);
  }
}

export interface ToolOptions {
  /** The binary (a name on PATH or a path). */
  command: string;
  timeoutMs: number;
  /** Kills the tool (the service is stopping): a ToolFailure of kind `aborted`. */
  signal?: AbortSignal;
}

/** A poster is taken at 1 s, or half-way through a shorter video. */
export function posterTimestampMs(durationMs: number): number {
  return Math.max(0, Math.floor(Math.min(1000, durationMs / 2)));
}

const positiveInt = (value: unknown): number => {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? Math.round(number) : 0;
};

/** "30000/1001" → 29.97; "0/0", "" or nonsense → 0. */
export function parseFrameRate(rate: unknown): number {
  if (typeof rate !== 'string') return 0;
  const [numerator, denominator = '1'] = rate.split('/');
  const value = Number(numerator) / Number(denominator);
  return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) / 1000 : 0;
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number | string }>;
  disposition?: { attached_pic?: number };
}

/**
 * The facts of ffprobe's JSON (`-show_format -show_streams`): the first video stream that is not a
 * cover picture; a file without one is refused. Duration from the container, else from the stream.
 */
export function parseProbe(output: unknown): VideoFacts {
  const probe = (output ?? {}) as { streams?: ProbeStream[]; format?: { duration?: string } };
  const video = (probe.streams ?? []).find((stream) => stream.codec_type === 'video' && !stream.disposition?.attached_pic);
  if (!video) throw new ToolFailure('refused', 'the file has no video stream');
  const seconds = Number(probe.format?.duration ?? video.duration);
  const durationMs = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 0;
  const frameRate = parseFrameRate(video.avg_frame_rate) || parseFrameRate(video.r_frame_rate);
  const rotation = Number(video.side_data_list?.find((data) => data.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0);
  const quarterTurn = Math.abs(Math.round(rotation)) % 180 === 90;
  const width = positiveInt(video.width);
  const height = positiveInt(video.height);
  return { durationMs, frameRate, width: quarterTurn ? height : width, height: quarterTurn ? width : height };
}

/** The last line the tool wrote on stderr, for a reason a person can read. */
const lastLine = (stderr: string) => stderr.trim().split('\n').pop()?.trim().slice(0, 300) ?? '';

/** Runs a tool, keeping at most `maxStdout` bytes of its output (more is a refusal) and the end of its stderr. */
function runTool(args: string[], options: ToolOptions, maxStdout: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failure: ToolFailure | undefined;
    const timer = setTimeout(() => {
      failure = new ToolFailure('timeout', `${options.command} did not finish within ${Math.round(options.timeoutMs / 1000)} s`);
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxStdout) {
        failure ??= new ToolFailure('refused', `${options.command} wrote more than ${maxStdout} bytes`);
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    const abort = () => {
      failure ??= new ToolFailure('aborted', `${options.command} was stopped (the service is shutting down)`);
      child.kill('SIGKILL');
    };
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      reject(error.code === 'ENOENT' ? new ToolFailure('missing', `${options.command} is not installed (install ffmpeg)`) : error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      if (failure) reject(failure);
      else if (code !== 0) reject(new ToolFailure('refused', lastLine(stderr) || `${options.command} exited with ${code}`));
      else resolve(Buffer.concat(out));
    });
  });
}

/** Network input options: give up on a stalled read rather than hang (microseconds). */
const inputOptions = (timeoutMs: number) => ['-rw_timeout', String(timeoutMs * 1000)];

/** Probes the video at `url` (ffprobe reads only what it needs, seeking with range requests: a `moov` at the end is found). */
export async function probeVideo(url: string, options: ToolOptions): Promise<VideoFacts> {
  const output = await runTool(
    ['-v', 'error', ...inputOptions(options.timeoutMs), '-print_format', 'json', '-show_format', '-show_streams', url],
    options,
    4 * 1024 * 1024,
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(output.toString('utf8'));
  } catch {
    throw new ToolFailure('refused', 'the prober gave no readable answer');
  }
  return parseProbe(parsed);
}

/** The frame at `atMs` as a JPEG (one frame, held in memory: bounded by `maxBytes`); empty when there is no frame there. */
export function extractPosterFrame(url: string, atMs: number, options: ToolOptions & { maxBytes: number }): Promise<Buffer> {
  return runTool(
    [
      '-v',
      'error',
      '-nostdin',
      ...inputOptions(options.timeoutMs),
      '-ss',
      (atMs / 1000).toFixed(3),
      '-i',
      url,
      '-frames:v',
      '1',
      '-an',
      '-sn',
      '-f',
      'image2pipe',
      '-c:v',
      'mjpeg',
      '-q:v',
      '3',
      'pipe:1',
    ],
    options,
    options.maxBytes,
  );
}
