/**
 * `npm run dead-letters -- <command>`: what the durable consumers gave up on (PLATFORM_DEAD_LETTERS), and putting
 * it back once the handler is fixed. NATS_URL as for the apps (default nats://127.0.0.1:4222).
 *
 *   list [--durable <name>]             one line per dead letter: sequence, durable, subject, deliveries, error
 *   replay <seq>... | --durable <name> | --all
 *                                       publishes each to its original subject again (keeping its event id, request
 *                                       id and trace context) and removes it from the dead letters
 *
 * A replayed event reaches every consumer of its subject, not only the one that failed: handlers are idempotent
 * and `meta.eventId` is the original one, so a service that had handled it does nothing new.
 */
import { jetstream, jetstreamManager, type JetStreamManager, type StoredMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import {
  connectNats,
  DEAD_LETTER_HEADERS,
  DEAD_LETTER_STREAM,
  DEAD_LETTER_SUBJECT_PREFIX,
  deadLetterSubject,
  ensureDeadLetterStream,
  EVENT_ID_HEADER,
} from '@social/platform';

export interface DeadLetter {
  seq: number;
  durable: string;
  subject: string;
  eventId: string;
  deliveries: number;
  error: string;
  time: Date;
}

const describe = (msg: StoredMsg): DeadLetter => ({
  seq: msg.seq,
  durable: msg.header.get(DEAD_LETTER_HEADERS.durable),
  subject: msg.header.get(DEAD_LETTER_HEADERS.subject),
  eventId: msg.header.get(DEAD_LETTER_HEADERS.eventId),
  deliveries: Number(msg.header.get(DEAD_LETTER_HEADERS.deliveries)),
  error: msg.header.get(DEAD_LETTER_HEADERS.error),
  time: msg.time,
});

/** Every stored dead letter (of one durable, if given), oldest first. */
export async function listDeadLetters(jsm: JetStreamManager, durable?: string): Promise<Array<DeadLetter & { msg: StoredMsg }>> {
  const info = await jsm.streams.info(DEAD_LETTER_STREAM);
  const letters: Array<DeadLetter & { msg: StoredMsg }> = [];
  // Few messages (each is an incident); a replayed one is deleted, so gaps are skipped.
  for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
    const msg = await jsm.streams.getMessage(DEAD_LETTER_STREAM, { seq }).catch(() => null);
    if (!msg || !msg.subject.startsWith(DEAD_LETTER_SUBJECT_PREFIX)) continue;
    if (durable && msg.subject !== deadLetterSubject(durable)) continue;
    letters.push({ ...describe(msg), msg });
  }
  return letters;
}

/** Publishes the dead letter to its original subject again and deletes it from the dead letters. */
export async function replayDeadLetter(nc: NatsConnection, jsm: JetStreamManager, letter: DeadLetter & { msg: StoredMsg }): Promise<void> {
  const headers = natsHeaders();
  for (const [key, values] of letter.msg.header) {
    if (key.startsWith('Dead-') || key === 'Nats-Msg-Id') continue;
    for (const value of values) headers.append(key, value);
  }
  headers.set(EVENT_ID_HEADER, letter.eventId);
  // A new message id: the original is still in the duplicate window when replayed soon after.
  headers.set('Nats-Msg-Id', `replay:${DEAD_LETTER_STREAM}:${letter.seq}`);
  await jetstream(nc).publish(letter.subject, letter.msg.data, { headers });
  await jsm.streams.deleteMessage(DEAD_LETTER_STREAM, letter.seq, false);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const option = (name: string) => {
    const at = rest.indexOf(name);
    return at >= 0 ? rest[at + 1] : undefined;
  };
  if (command !== 'list' && command !== 'replay') {
    process.stderr.write('usage: dead-letters list [--durable <name>] | replay <seq>... | replay --durable <name> | replay --all\n');
    return 2;
  }
  const nc = await connectNats(process.env['NATS_URL'] || 'nats://127.0.0.1:4222', 'dead-letters-tool');
  try {
    await ensureDeadLetterStream(nc);
    const jsm = await jetstreamManager(nc);
    const durable = option('--durable');
    const letters = await listDeadLetters(jsm, durable);
    if (command === 'list') {
      for (const l of letters) {
        process.stdout.write(
          `${l.seq}\t${l.time.toISOString()}\t${l.durable}\t${l.subject}\t${l.eventId}\tdeliveries=${l.deliveries}\t${l.error}\n`,
        );
      }
      process.stdout.write(`${letters.length} dead letter(s)\n`);
      return 0;
    }
    const wanted = new Set(rest.filter((arg) => /^\d+$/.test(arg)).map(Number));
    if (wanted.size === 0 && !durable && !rest.includes('--all')) {
      process.stderr.write('replay: name sequence numbers, --durable <name> or --all\n');
      return 2;
    }
    const chosen = wanted.size > 0 ? letters.filter((l) => wanted.has(l.seq)) : letters;
    const missing = [...wanted].filter((seq) => !letters.some((l) => l.seq === seq));
    for (const letter of chosen) {
      await replayDeadLetter(nc, jsm, letter);
      process.stdout.write(`replayed ${letter.seq} → ${letter.subject} (event ${letter.eventId})\n`);
    }
    if (missing.length > 0) process.stderr.write(`no dead letter with sequence ${missing.join(', ')}\n`);
    return missing.length > 0 ? 1 : 0;
  } finally {
    await nc.close();
  }
}

if (process.argv[1]?.endsWith('dead-letters.js')) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`dead-letters: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
