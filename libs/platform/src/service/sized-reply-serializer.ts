import type { Logger } from 'pino';
import { problems } from '../problems/problem.js';
import { serializeReply } from '../rpc/reply-envelope.js';

/** Room kept for the NATS headers of a reply. */
const HEADER_RESERVE_BYTES = 4 * 1024;

interface ReplyPacket {
  id?: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
  [key: string]: unknown;
}

/**
 * Nest's NATS replies as JSON (what its NatsRecordSerializer writes for plain values, `response` last: see
 * reply-envelope.ts), except that a reply
 * larger than the server's `max_payload` becomes a 500 problem at once, logged naming `max_payload`:
 * NATS would refuse to send it and the caller would wait for its timeout (a 504 ten seconds later).
 * The platform's caps keep every reply within its 8 MiB; this guards a server configured with less.
 */
export class SizedReplySerializer {
  constructor(
    private readonly maxPayload: () => number | undefined,
    private readonly logger: Logger,
  ) {}

  serialize(packet: ReplyPacket): { data: string; headers?: undefined } {
    const data = serializeReply(packet);
    const max = this.maxPayload();
    const bytes = Buffer.byteLength(data);
    if (!max || bytes + HEADER_RESERVE_BYTES <= max) return { data };
    this.logger.error(
      { max_payload: max, reply_bytes: bytes },
      `a reply of ${bytes} bytes does not fit NATS max_payload (${max}); configure the server with max_payload: 8MB`,
    );
    return { data: JSON.stringify({ id: packet.id, err: problems.internal().toPayload(), isDisposed: true }) };
  }
}
