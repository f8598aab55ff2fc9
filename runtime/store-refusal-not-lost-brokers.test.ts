// What went wrong (issue 36 §3, the chaos run of 2026-11-29 22:28): lostTheBrokers matched
// `ECONNREFUSED` anywhere in an error's chain, so a sink that had spent its retries on a refused
// connection to the *store* was taken for a stage that lost the *brokers*, and started again in
// process three times in a row, while a store timeout took the process down at once: what an
// outage did was decided by an error's text. A store's failure that reaches the failure policy is
// now the store's, whatever its text: fatal (sinks wait for a store that does not answer, so what
// still reaches the policy is a store refusing for good).
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../pipeline/store/index.js';
import { lostTheBrokers } from '../test/support/failing-consumer.js';
import { stageFailureHandler } from './failure-policy.js';
import { RuntimeHealth } from './health.js';

const logger = pino({ level: 'silent' });

describe('the failure policy given a store failure whose text names a refused connection', () => {
  it('stops the process instead of starting the stage again as if it had lost the brokers', () => {
    const health = new RuntimeHealth();
    const fatal: string[] = [];
    const policy = stageFailureHandler(health, logger, (reason) => fatal.push(reason));
    const refused = new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true, { unreachable: true });
    const sinkFailure = new Error('insert into clv_entries failed after 9 attempts: connect ECONNREFUSED 127.0.0.1:8123', {
      cause: refused,
    });
    expect(policy(sinkFailure, 'closing')).toBeNull();
    expect(fatal).toEqual(['stage failed: insert into clv_entries failed after 9 attempts: connect ECONNREFUSED 127.0.0.1:8123']);
    expect(health.check()).toEqual({
      status: 'down',
      message: 'stage failed: insert into clv_entries failed after 9 attempts: connect ECONNREFUSED 127.0.0.1:8123',
    });
  });

  it('still starts a stage again when its consumer lost the brokers', () => {
    const policy = stageFailureHandler(new RuntimeHealth(), logger);
    expect(policy(lostTheBrokers(), 'closing')).toEqual({ afterMs: 500 });
    const refusedBroker = new Error('connect ECONNREFUSED 127.0.0.1:9092');
    expect(policy(refusedBroker, 'normalizer')).toEqual({ afterMs: 500 });
  });
});
