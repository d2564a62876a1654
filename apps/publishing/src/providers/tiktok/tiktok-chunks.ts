const MIB = 1024 * 1024;
/**
 * The chunk we send: inside TikTok's bounds whatever "MB" means there (at least 5 MB, at most 64 MB; the final chunk
 * takes the trailing bytes, up to 128 MB), small enough that one chunk in flight costs little.
 */
export const TIKTOK_CHUNK_BYTES = 10 * MIB;
/** At most 1000 chunks a video (Media Transfer Guide). */
export const TIKTOK_MAX_CHUNKS = 1000;
const MAX_CHUNK_BYTES = 64 * 1000 * 1000;

/** One chunk's bytes, inclusive, as Content-Range names them. */
export interface ChunkRange {
  start: number;
  end: number;
}

export interface ChunkPlan {
  chunkSize: number;
  totalChunkCount: number;
  chunks: ChunkRange[];
}

/**
 * How a video of `size` bytes goes to TikTok (Media Transfer Guide, "Chunk restrictions"): a video of at most one chunk
 * goes whole (`chunk_size` = its size: TikTok requires that below 5 MB), else `total_chunk_count` =
 * floor(size / chunk_size) chunks of `chunk_size`, the last one also carrying the trailing bytes. A video so large
 * that 1000 chunks of TIKTOK_CHUNK_BYTES would not hold it gets larger chunks.
 */
export function chunkPlan(size: number): ChunkPlan {
  if (!Number.isSafeInteger(size) || size <= 0) throw new RangeError('A video to upload has at least one byte.');
  const chunkSize = Math.max(TIKTOK_CHUNK_BYTES, Math.ceil(size / TIKTOK_MAX_CHUNKS));
  if (chunkSize > MAX_CHUNK_BYTES) throw new RangeError('The video is larger than TikTok takes.');
  if (size <= chunkSize) return { chunkSize: size, totalChunkCount: 1, chunks: [{ start: 0, end: size - 1 }] };
  const totalChunkCount = Math.floor(size / chunkSize);
  const chunks = Array.from({ length: totalChunkCount }, (_, index) => ({
    start: index * chunkSize,
    end: index === totalChunkCount - 1 ? size - 1 : (index + 1) * chunkSize - 1,
  }));
  return { chunkSize, totalChunkCount, chunks };
}
