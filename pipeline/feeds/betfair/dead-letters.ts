import type { DeadLetter } from '../../../schemas/index.js';

/** Where stream messages that could not be read are said to come from, on the dead-letter topic. */
export const STREAM_SOURCE = 'betfair.stream';

/** Payloads beyond this are cut: a dead letter is for an operator to read, not an archive of the stream. */
const MAX_PAYLOAD_BYTES = 64 * 1024;

/** A stream message that could not be read, as a dead letter: `offset` counts the messages of the source (line number of a recording). */
export function streamDeadLetter(offset: number, marketId: string | null, reason: string, line: string, at: number): DeadLetter {
  const payload = Buffer.from(line, 'utf8').subarray(0, MAX_PAYLOAD_BYTES);
  return { topic: STREAM_SOURCE, partition: 0, offset, key: marketId ?? '', reason, payloadBase64: payload.toString('base64'), at };
}
