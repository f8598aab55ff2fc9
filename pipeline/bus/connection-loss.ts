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
 * connection drops while a consumer starts).
 */
export function lostTheBrokers(error: unknown): boolean {
  for (const e of causesOf(error)) {
    if (
      e.name === 'KafkaJSConnectionError' ||
      e.name === 'KafkaJSBrokerNotFound' ||
      /ECONNREFUSED|Connection error|Closed connection/.test(e.message)
    )
      return true;
  }
  return false;
}
