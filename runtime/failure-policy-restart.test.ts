// In a chaos run a normalizer that lost the brokers was started again by the failure policy and
// produced the ticks it had handled but not yet committed a second time: 570 ticks stored twice.
// The runner now skips, in a restarted stage, what this process already handled. These cases run
// a committing stage through that restart: its outputs come out once each, and a stage that
// rebuilds its state from its inputs up to where it resumes rebuilds what it handled too.
import { MemoryBus } from '../pipeline/bus/index.js';
import { describeCommittingStageRestart } from '../test/support/committing-stage-restart.js';

describeCommittingStageRestart(
  'in-process bus',
  async () => {
    const bus = new MemoryBus();
    return { bus, close: () => bus.close() };
  },
  5000,
  50,
);
