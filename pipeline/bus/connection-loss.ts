/**
 * Telling a lost connection to the log apart from every other failure. The Kafka client gives
 * up on a consumer that lost the brokers (its own retries spent) and its stage fails; the
 * runtime's failure policy starts such a stage again, bounded, where any other failure stops the
 * process. Names are compared, not classes, so nothing outside the Kafka adapter loads kafkajs.
 */

/** An error and the ones it wraps (kafkajs's `originalError`, or `cause`), outermost first. */
export function* causesOf(error: unknown): Generator<Error> {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    yield e;
    const wrapped = e as Error & { originalError?: unknown; cause?: unknown };
    e = wrapped.originalError ?? wrapped.cause;
  }
}

/**
 * Whether an error (or one it wraps) is a failure to reach the brokers: refused, closed, or a
 * socket written after its end (`KafkaJSConnectionError: write after end`, seen when a broker
 * connection drops while a consumer starts). A store's failure (`StoreError`, wrapped by a sink
 * or a restore) is the store's, whatever its text says: a store that does not answer is waited
 * for by the sinks (pipeline/sinks/table-sink.ts), and one that reaches the failure policy is
 * fatal. Until 2026-11-30 a sink's `connect ECONNREFUSED` to the store matched the text below
 * and its stage was started again in process as if it had lost the brokers.
 */
export function lostTheBrokers(error: unknown): boolean {
  const chain = [...causesOf(error)];
  // Asked of the whole chain first: the sink's own error repeats the store's text.
  if (chain.some((e) => e.name === 'StoreError')) return false;
  for (const e of chain) {
    if (
      e.name === 'KafkaJSConnectionError' ||
      e.name === 'KafkaJSBrokerNotFound' ||
      /ECONNREFUSED|Connection error|Closed connection/.test(e.message)
    )
      return true;
  }
  return false;
}
