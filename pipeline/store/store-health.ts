import type { RuntimeCheck } from '../../schemas/index.js';
import type { OlapStore, StoreAnswer } from './store.js';
import { StoreReach } from './store.js';

/**
 * Whether the store answers is judged by its latest answer to this process (`StoreReach`: the
 * sinks' inserts, usage flushes, history queries); when it gave none for this long, the check
 * asks it `SELECT 1`, so at most once per this long however often `/health` is polled.
 */
const STORE_PROBE_EVERY_MS = 5_000;
/** A probe the store has not answered within this long counts as the store not answering. */
const STORE_PROBE_TIMEOUT_MS = 3_000;

export interface StoreHealthOptions {
  /**
   * Whether this process applied every migration before it served (runtime/store.ts does at
   * start): the schema counts as verified from the first probe, so a store lost before anyone
   * probed is `degraded` too.
   */
  schemaApplied: boolean;
  /** What the process still does while the store does not answer, for the degraded message. */
  meanwhile: string;
}

/**
 * The store as `/health` reports it, in every role (the API's `/health` and the pipeline
 * process's): from the store's latest answer to this process, a failed one counting at once, and
 * a cheap probe when the store said nothing for 5 s. A store that does not answer is `degraded`
 * once this process has seen its schema in place (the process goes on: the API serves from
 * memory, the sinks' batches wait in the log), `down` only when nothing ever showed the schema
 * there. A replica probed just before an outage once said `ok` from a 30-s cache for up to 30 s
 * of it (issue 36's chaos run).
 */
export class StoreHealth {
  /** The store's answers to this process (a store without its own record: this check's probes only). */
  readonly reach: StoreReach;
  private verified: boolean;
  private probing: Promise<void> | null = null;

  constructor(
    private readonly store: OlapStore,
    private readonly options: StoreHealthOptions,
  ) {
    this.reach = store.reach ?? new StoreReach();
    this.verified = options.schemaApplied;
  }

  /** A check of the schema found every migration applied: from now on an unreachable store is `degraded`. */
  schemaVerified(): void {
    this.verified = true;
  }

  /** The store's latest answer, asking it only when it gave none for STORE_PROBE_EVERY_MS (one probe for concurrent callers). */
  async latest(): Promise<StoreAnswer> {
    const last = this.reach.last;
    if (last && Date.now() - last.at < STORE_PROBE_EVERY_MS) return last;
    this.probing ??= this.probe().finally(() => (this.probing = null));
    await this.probing;
    return this.reach.last ?? { at: Date.now(), ok: false, message: 'never answered' };
  }

  /** The check of a store that does not answer, `why` being what its latest failure said. */
  unreachable(why: string): RuntimeCheck {
    return this.verified
      ? { status: 'degraded', message: `store unreachable (${this.options.meanwhile}): ${why}` }
      : { status: 'down', message: `store unreachable: ${why}` };
  }

  /** The store's check from its latest answer alone (a process that reads no schema of its own: the pipeline's). */
  async check(): Promise<RuntimeCheck> {
    const answer = await this.latest();
    return answer.ok ? { status: 'ok', message: `answers (${this.store.kind})` } : this.unreachable(answer.message);
  }

  /** Asks the store `SELECT 1`, bounded by STORE_PROBE_TIMEOUT_MS, and records how it ended. */
  private async probe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the store did not answer within ${STORE_PROBE_TIMEOUT_MS / 1000} s`)),
        STORE_PROBE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.store.query('SELECT 1 AS ok'), late]);
      this.reach.answered();
    } catch (e) {
      this.reach.failed(e);
    } finally {
      clearTimeout(timer);
    }
  }
}
