import { LEAGUES, TEAMS, settingDefault } from '../schemas/index.js';
import type { EvOpportunity } from '../schemas/index.js';
import { partitionFor } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { Normalizer } from '../pipeline/normalize/index.js';
import { DEFAULT_PHANTOM_POLICY, OpportunityProcessor, isPhantom, staleClockOfRecord, staleness } from '../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../pipeline/snapshot/index.js';

/**
 * Share of the +EV list (min_ev 0, sorted by EV) flagged stale after a few simulated minutes of
 * the default simulator (seed 42, in 100 ms steps at `make run`'s rate, 1,000 ticks/s since stop 50, unless
 * `ticksPerSecond` says otherwise), by each book's
 * measured cadence and, on the same rows, by the fixed rule it replaced (60 s pre-match, 10 s
 * live since the oldest price's last confirmation): on the first 200 rows, on every row, and on
 * the default page of `GET /opportunities/ev` (the first 50 once the very stale are left out).
 * `partitions` splits the events over that many opportunity processors by event id, as the
 * runtime's 4 partitions do (each learns its books' cadences from its own events only).
 * Rounds of betting splits come as `make run`'s feed sends them (right after the board, then
 * every `SPLITS_INTERVAL_SECONDS`, 300 by default; `splitsSeconds` 0 turns them off): sharp money
 * in a round moves the truth of about one game in ten before its start, and every book requotes
 * them after its lag. Without them (before stop 52) this bench never met the pre-match news the
 * running runtime meets every five minutes. Deterministic; no server.
 *
 *   npx tsx bench/stale-share.ts [minutes=5] [staleCadenceFactor=2] [partitions=1] [ticksPerSecond=1000] [splitsSeconds=300]
 */

const minutes = Number(process.argv[2] ?? 5);
const factor = process.argv[3] === undefined || process.argv[3] === '-' ? undefined : Number(process.argv[3]);
const partitions = Number(process.argv[4] ?? 1);
const ticksPerSecond = Number(process.argv[5] ?? settingDefault('SIM_TICKS_PER_SECOND'));
const splitsMs = Number(process.argv[6] ?? settingDefault('SPLITS_INTERVAL_SECONDS')) * 1000;
const T0 = Date.UTC(2026, 10, 28, 12);
const clock = new ManualClock(T0);
const sim = new MarketSimulator({ seed: 42, clock });
const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
const snapshot = new SnapshotProcessor();
const processors = Array.from(
  { length: partitions },
  () => new OpportunityProcessor(factor === undefined ? {} : { staleCadenceFactor: factor }),
);
const of = (eventId: string): OpportunityProcessor => processors[partitionFor(eventId, partitions)] as OpportunityProcessor;

function feed(now: number, raw: ReturnType<MarketSimulator['snapshot']>): void {
  for (const r of raw) {
    const n = normalizer.handle(r, now);
    for (const event of n.events) of(event.id).handle({ type: 'event', event }, now);
    if (n.tick === null) continue;
    const change = snapshot.handle(n.tick, now);
    if (change !== null) of(change.eventId).handle({ type: 'odds', change }, now);
  }
}

feed(T0, sim.snapshot());
// As the feed sends them: after the board, then after the ticks of the step a round falls due in.
// The splits records feed no opportunity; the requotes they queue do.
let nextSplits = splitsMs > 0 ? T0 : Infinity;
const splitsDue = (now: number): void => {
  if (now < nextSplits) return;
  sim.splits(now);
  nextSplits = now + splitsMs;
};
splitsDue(T0);
const stepMs = 100;
for (let now = T0 + stepMs; now <= T0 + minutes * 60_000; now += stepMs) {
  clock.set(now);
  feed(now, sim.step(now, (ticksPerSecond * stepMs) / 1000));
  splitsDue(now);
}
const now = clock.now();
const rows = processors
  .flatMap((p) => p.active())
  .filter((o): o is EvOpportunity => o.kind === 'ev' && o.methods.power.evPercent >= 0)
  .sort((a, b) => b.methods.power.evPercent - a.methods.power.evPercent || a.id.localeCompare(b.id));
const top = rows.slice(0, 200);
const page = rows.filter((o) => !isPhantom(o, now, DEFAULT_PHANTOM_POLICY)).slice(0, 50);
const fixed = (o: EvOpportunity): boolean =>
  staleness(o.oldestOddsTs, now, o.event.isLive, staleClockOfRecord({ ...o, freshUntil: null, staleAfterSeconds: null })).possiblyStale;
const measured = (o: EvOpportunity): boolean => staleness(o.oldestOddsTs, now, o.event.isLive, staleClockOfRecord(o)).possiblyStale;
const count = (list: EvOpportunity[], f: (o: EvOpportunity) => boolean): string => `${list.filter(f).length} of ${list.length}`;
const stalePage = page.filter(measured);
const ages = (list: EvOpportunity[]): string =>
  list
    .map((o) => `${o.event.isLive ? 'live' : 'pre'} ${Math.round((now - o.oldestOddsTs) / 1000)}/${o.staleAfterSeconds ?? '-'} s`)
    .join(', ');
process.stdout.write(
  `after ${minutes} simulated minutes at ${ticksPerSecond} ticks/s, ${partitions} partition(s), splits every ${splitsMs / 1000} s: ${rows.length} +EV rows\n` +
    `first 200, stale by the fixed 60 s / 10 s rule: ${count(top, fixed)}\n` +
    `first 200, stale by each book's cadence:      ${count(top, measured)}\n` +
    `all rows, fixed rule: ${count(rows, fixed)}; measured: ${count(rows, measured)}\n` +
    `default page (first 50, very stale left out), stale by each book's cadence: ${count(page, measured)} ` +
    `(${stalePage.filter((o) => o.event.isLive).length} live); age/threshold: ${ages(stalePage)}\n`,
);
