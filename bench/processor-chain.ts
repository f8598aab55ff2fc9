import { LEAGUES, TEAMS } from '../schemas/index.js';
import type { CanonicalEvent, OddsChange, OpportunityChange, RawGameState, RawTick } from '../schemas/index.js';
import { EMPTY_STATE, mapSnapshot, recordedSnapshots } from '../pipeline/feeds/theoddsapi/index.js';
import { Normalizer } from '../pipeline/normalize/index.js';
import { OpportunityProcessor } from '../pipeline/opportunities/index.js';
import type { OpportunityInput } from '../pipeline/opportunities/index.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { SnapshotProcessor } from '../pipeline/snapshot/index.js';

/**
 * The pipeline's own processors in a row (normalizer, snapshot, opportunity engines), run
 * synchronously in process: what the benches that measure a recorded or simulated market feed
 * their ticks through, so that they judge what the pipeline produces, not a second version of it.
 */

/** The real Odds API recordings the benches replay (`../shared/data/README.md`), by a short name. */
export const ODDS_API_RECORDINGS = [
  { name: 'NFL wk10', file: 'theoddsapi_v4_nfl_2025wk10_snapshots.jsonl.gz' },
  { name: 'WC 2026', file: 'theoddsapi_v4_fifa_wc2026_snapshots.jsonl.gz' },
] as const;

/** What one feeding produced, in order: the events, the changelog and the opportunity changes. */
export interface ChainOutput {
  events: CanonicalEvent[];
  changes: OddsChange[];
  opportunities: OpportunityChange[];
}

export class ProcessorChain {
  private readonly normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
  private readonly snapshot = new SnapshotProcessor();
  readonly opportunities = new OpportunityProcessor();

  /** `keep` leaves out markets nobody measures: they would cost the engines time and change no figure. */
  constructor(private readonly keep: (market: string) => boolean = () => true) {}

  feed(now: number, ticks: readonly RawTick[], states: readonly RawGameState[] = []): ChainOutput {
    const out: ChainOutput = { events: [], changes: [], opportunities: [] };
    const inputs: OpportunityInput[] = [];
    const events = (list: readonly CanonicalEvent[]): void => {
      for (const event of list) {
        out.events.push(event);
        inputs.push({ type: 'event', event });
      }
    };
    for (const g of states) events(this.normalizer.handleGameState(g, now).events);
    for (const raw of ticks) {
      if (!this.keep(raw.market)) continue;
      const n = this.normalizer.handle(raw, now);
      events(n.events);
      if (n.tick === null) continue;
      const change = this.snapshot.handle(n.tick, now);
      if (change === null) continue;
      out.changes.push(change);
      inputs.push({ type: 'odds', change });
    }
    if (inputs.length > 0) out.opportunities = this.opportunities.handleBatch(inputs, now);
    return out;
  }
}

/**
 * Every snapshot of an Odds API recording, diffed as the replay feed does, through a chain:
 * `each` sees what each snapshot produced, at the snapshot's time, and the snapshot itself.
 */
export async function replayRecording(
  path: string,
  chain: ProcessorChain,
  each: (at: number, out: ChainOutput, snapshot: RecordedSnapshot) => void,
): Promise<void> {
  let state = EMPTY_STATE;
  for await (const snap of recordedSnapshots(path)) {
    const mapped = mapSnapshot(snap.data, snap.timestamp, state);
    state = mapped.state;
    each(snap.timestamp, chain.feed(snap.timestamp, mapped.ticks), snap);
  }
}
