// How the server adapter classifies a failed call. The sinks wait for a store that does not answer
// and fail a batch the store rejected; the adapter tells the two apart by the connection's error
// code and the server's exception code, not by the message's text (a text match once took a
// store's `connect ECONNREFUSED` for a lost broker: pipeline/bus/connection-loss.ts).
import { describe, expect, it } from 'vitest';
import { serverFailure } from './clickhouse-store.js';

/** An error as Node's sockets raise it: the text and the code. */
const system = (message: string, code: string): Error => Object.assign(new Error(message), { code });
/** An error as the client raises a parsed server exception: its code is the server's, as text. */
const exception = (code: string, message: string): Error => Object.assign(new Error(message), { code, type: 'X' });

describe('a failed call to the ClickHouse server', () => {
  it('is unreachable when the connection was refused, reset, cut or timed out', () => {
    for (const e of [
      system('connect ECONNREFUSED 127.0.0.1:8123', 'ECONNREFUSED'),
      system('socket hang up', 'ECONNRESET'),
      system('write EPIPE', 'EPIPE'),
      system('Premature close', 'ERR_STREAM_PREMATURE_CLOSE'),
      new Error('Timeout error.'),
      new Error('insert failed', { cause: system('connect ECONNREFUSED 127.0.0.1:8123', 'ECONNREFUSED') }),
      new AggregateError([system('connect ECONNREFUSED ::1:8123', 'ECONNREFUSED')], 'connect failed'),
    ])
      expect([e.message, serverFailure(e)]).toEqual([e.message, { retryable: true, unreachable: true }]);
  });

  it('is retryable but reachable when the server refused for now, and neither when it rejected the statement', () => {
    expect(serverFailure(exception('241', 'Memory limit (total) exceeded'))).toEqual({ retryable: true, unreachable: false });
    expect(serverFailure(new Error('Code: 252. DB::Exception: Too many parts (300).'))).toEqual({ retryable: true, unreachable: false });
    expect(serverFailure(exception('62', 'Syntax error: failed at position 1'))).toEqual({ retryable: false, unreachable: false });
    expect(serverFailure(exception('60', 'Unknown table expression identifier odds_tick'))).toEqual({
      retryable: false,
      unreachable: false,
    });
  });

  it('is not taken for unreachable by a message that only mentions a refused connection', () => {
    expect(serverFailure(new Error('Code: 117. DB::Exception: Cannot parse input: ECONNREFUSED'))).toEqual({
      retryable: false,
      unreachable: false,
    });
  });
});
