import { LEAGUES, TEAMS } from '../schemas/index.js';
import type { EvOpportunity } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { Normalizer } from '../pipeline/normalize/index.js';
import { OpportunityProcessor, staleClockOfRecord, staleness } from '../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../pipeline/snapshot/index.js';

/**
 * Share of the default +EV list (min_ev 0, sorted by EV, first 200) flagged stale after a few
 * simulated minutes of the default simulator (seed 42, 200 ticks/s in 100 ms steps, as `make run`),
 * by each book's measured cadence and, on the same rows, by the fixed rule it replaced (60 s
 * pre-match, 10 s live since the oldest price's last confirmation). Deterministic; no server.
 *
 *   npx tsx bench/stale-share.ts [minutes=5] [staleCadenceFactor=2]
 */

const minutes = Number(process.argv[2] ?? 5);
const T0 = Date.UTC(2026, 10, 28, 12);
const clock = new ManualClock(T0);
const sim = new MarketSimulator({ seed: 42, clock });
const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
const snapshot = new SnapshotProcessor();
const factor = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const opportunities = new OpportunityProcessor(factor === undefined ? {} : { staleCadenceFactor: factor });

function feed(now: number, raw: ReturnType<MarketSimulator['snapshot']>): void {
  for (const r of raw) {
    const n = normalizer.handle(r, now);
    for (const event of n.events) opportunities.handle({ type: 'event', event }, now);
    if (n.tick === null) continue;
    const change = snapshot.handle(n.tick, now);
    if (change !== null) opportunities.handle({ type: 'odds', change }, now);
  }
}

feed(T0, sim.snapshot());
const stepMs = 100;
for (let now = T0 + stepMs; now <= T0 + minutes * 60_000; now += stepMs) {
  clock.set(now);
  feed(now, sim.step(now, (200 * stepMs) / 1000));
}
const now = clock.now();
const rows = opportunities
  .active()
  .filter((o): o is EvOpportunity => o.kind === 'ev' && o.methods.power.evPercent >= 0)
  .sort((a, b) => b.methods.power.evPercent - a.methods.power.evPercent || a.id.localeCompare(b.id));
const top = rows.slice(0, 200);
const fixed = (o: EvOpportunity): boolean =>
  staleness(o.oldestOddsTs, now, o.event.isLive, staleClockOfRecord({ ...o, freshUntil: null, staleAfterSeconds: null })).possiblyStale;
const measured = (o: EvOpportunity): boolean => staleness(o.oldestOddsTs, now, o.event.isLive, staleClockOfRecord(o)).possiblyStale;
const count = (list: EvOpportunity[], f: (o: EvOpportunity) => boolean): string => `${list.filter(f).length} of ${list.length}`;
process.stdout.write(
  `after ${minutes} simulated minutes: ${rows.length} +EV rows\n` +
    `first 200, stale by the fixed 60 s / 10 s rule: ${count(top, fixed)}\n` +
    `first 200, stale by each book's cadence:      ${count(top, measured)}\n` +
    `all rows, fixed rule: ${count(rows, fixed)}; measured: ${count(rows, measured)}\n`,
);
