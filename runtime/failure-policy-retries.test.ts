// A pipeline process restarted under chaos exited while starting: its sinks' consumers met
// `KafkaJSConnectionError: write after end` (a broker socket closed under them, retriable) and
// the policy treated every stage failure as fatal. A lost connection now starts the stage again
// after a backoff, a bounded number of times; every other failure still stops the process.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { stageFailureHandler } from './failure-policy.js';
import { RuntimeHealth } from './health.js';

const logger = pino({ level: 'silent' });
const retries = { attempts: 3, firstDelayMs: 500, windowMs: 60_000 };

function connectionLost(message = 'write after end'): Error {
  const e = new Error(message);
  e.name = 'KafkaJSConnectionError';
  return e;
}

function policy(now: { ms: number }) {
  const health = new RuntimeHealth();
  const fatal: string[] = [];
  const handle = stageFailureHandler(health, logger, (reason) => fatal.push(reason), { retries, now: () => now.ms });
  return { health, fatal, handle };
}

describe('the stage failure policy', () => {
  it('starts a stage that lost the brokers again with a doubling backoff, the process kept up', () => {
    const now = { ms: 0 };
    const { health, fatal, handle } = policy(now);
    expect(handle(connectionLost(), 'sink:odds_latest')).toEqual({ afterMs: 500 });
    expect(handle(connectionLost(), 'sink:odds_latest')).toEqual({ afterMs: 1000 });
    // Counted per stage.
    expect(handle(connectionLost(), 'opportunities')).toEqual({ afterMs: 500 });
    expect(handle(connectionLost(), 'sink:odds_latest')).toEqual({ afterMs: 2000 });
    expect(health.failed).toBe(false);
    expect(fatal).toEqual([]);
  });

  it('recognizes the lost connection when the client wraps it', () => {
    const { handle } = policy({ ms: 0 });
    const wrapped = Object.assign(new Error('Crash: KafkaJSNumberOfRetriesExceeded'), { originalError: connectionLost() });
    expect(handle(wrapped, 'snapshot')).toEqual({ afterMs: 500 });
  });

  it('stops the process once a stage lost the brokers more times in a row than the bound, each loss within the window of the one before', () => {
    const now = { ms: 0 };
    const { health, fatal, handle } = policy(now);
    // As with the brokers gone for good: each new consumer spends half a minute of retries first.
    for (let i = 0; i < 3; i++) {
      handle(connectionLost(), 'snapshot');
      now.ms += 30_000;
    }
    expect(handle(connectionLost(), 'snapshot')).toBeNull();
    expect(health.check()).toEqual({ status: 'down', message: 'stage failed: write after end' });
    expect(fatal).toEqual(['stage failed: write after end']);
  });

  it('starts the row again after a loss older than the window', () => {
    const now = { ms: 0 };
    const { health, handle } = policy(now);
    for (let i = 0; i < 3; i++) handle(connectionLost(), 'snapshot');
    now.ms = 60_000;
    expect(handle(connectionLost(), 'snapshot')).toEqual({ afterMs: 500 });
    expect(health.failed).toBe(false);
  });

  it('stops the process at once on any other failure, and tells only the first', () => {
    const { health, fatal, handle } = policy({ ms: 0 });
    expect(handle(new Error('insert into odds_ticks failed after 3 attempts'), 'sink:odds_ticks')).toBeNull();
    expect(health.check().status).toBe('down');
    expect(handle(connectionLost(), 'snapshot')).toBeNull();
    expect(fatal).toEqual(['stage failed: insert into odds_ticks failed after 3 attempts']);
  });
});
