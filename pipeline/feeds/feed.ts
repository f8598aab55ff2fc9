import type { RawTick } from '../../schemas/index.js';

/**
 * A source of raw ticks. The runner hands it `emit`, which resolves when the bus accepted the
 * batch: a feed that awaits it is back-pressured by the pipeline.
 */
export interface Feed {
  readonly name: string;
  start(emit: (ticks: RawTick[]) => Promise<void>): Promise<void>;
  /** Stops producing; resolves once no further emit will be called. */
  stop(): Promise<void>;
}
