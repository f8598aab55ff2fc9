import { LEAGUES, TEAMS } from '../schemas/index.js';
import type { EvOpportunity, OpportunityPrice } from '../schemas/index.js';
import { partitionFor } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import type { QuoteView } from '../pipeline/feeds/simulator/index.js';
import { Normalizer } from '../pipeline/normalize/index.js';
import { DEFAULT_PHANTOM_POLICY, OpportunityProcessor, isPhantom, staleClockOfRecord, staleness } from '../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../pipeline/snapshot/index.js';
import { K_BUCKETS } from './stale-outcomes.js';
import { staleShareArgs } from './stale-share-args.js';
import type { StaleShareArgs } from './stale-share-args.js';

/**
 * Share of the +EV list (min_ev 0, sorted by EV) flagged stale after a few simulated minutes of
 * the default simulator (seed 42 unless `seed` says otherwise, in 100 ms steps at `make run`'s
 * rate, 1,000 ticks/s since stop 50, unless `ticksPerSecond` says otherwise), by each book's
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
 * Each stale row of the default page is then listed with the price its clock runs on (the one
 * that goes stale first): its book, whether it is the bet or a reference, how many of its book's
 * thresholds old it is (k, what `VERY_STALE_FACTOR` is compared with), whether the simulator's
 * book is sitting on that quote by design (`QuoteView.stale`), and the bet's EV against the
 * simulator's true fair probability beside its EV against the references.
 *
 *   npx tsx bench/stale-share.ts [minutes=5] [staleCadenceFactor=2] [partitions=1] [ticksPerSecond=1000] [splitsSeconds=300] [seed=42]
 *
 * (`-` for any argument: its default.)
 */

function parsedArgs(): StaleShareArgs {
  try {
    return staleShareArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`stale-share: ${(e as Error).message}\n`);
    process.exit(2);
  }
}
const args = parsedArgs();
const { minutes, staleCadenceFactor: factor, partitions, ticksPerSecond, seed } = args;
const splitsMs = args.splitsSeconds * 1000;
const T0 = Date.UTC(2026, 10, 28, 12);
const clock = new ManualClock(T0);
const sim = new MarketSimulator({ seed, clock });
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
  `seed ${seed}, after ${minutes} simulated minutes at ${ticksPerSecond} ticks/s, ${partitions} partition(s), splits every ${splitsMs / 1000} s: ${rows.length} +EV rows\n` +
    `first 200, stale by the fixed 60 s / 10 s rule: ${count(top, fixed)}\n` +
    `first 200, stale by each book's cadence:      ${count(top, measured)}\n` +
    `all rows, fixed rule: ${count(rows, fixed)}; measured: ${count(rows, measured)}\n` +
    `default page (first 50, very stale left out), stale by each book's cadence: ${count(page, measured)} ` +
    `(${stalePage.filter((o) => o.event.isLive).length} live); age/threshold: ${ages(stalePage)}\n`,
);

/** The price a record's stale clock runs on: the first whose book's threshold runs out at `freshUntil`. */
function clockPrice(o: EvOpportunity): { price: OpportunityPrice; role: 'bet' | 'reference' } | null {
  if (o.freshUntil === null || o.staleAfterSeconds === null) return null;
  const on = (p: OpportunityPrice): boolean => p.ts + (o.staleAfterSeconds as number) * 1000 === o.freshUntil;
  const bet = o.legs.find(on);
  if (bet !== undefined) return { price: bet, role: 'bet' };
  const ref = o.references.find(on);
  return ref === undefined ? null : { price: ref, role: 'reference' };
}

// The simulator's own view of each quote: whether its book sits on it now, and the true fair.
const quotes = new Map<string, QuoteView[]>();
for (const q of sim.inspect()) {
  const key = `${q.book}|${q.bookEventId}|${q.market}|${q.participant ?? ''}`;
  const list = quotes.get(key);
  if (list === undefined) quotes.set(key, [q]);
  else list.push(q);
}
/** The quote a price came from and the index of its outcome there: same book, event, market, line, price and time. */
function quoteOf(p: OpportunityPrice, market: string, participant: string | null): { q: QuoteView; i: number } | null {
  for (const q of quotes.get(`${p.book}|${p.bookEventId}|${market}|${participant ?? ''}`) ?? []) {
    if (q.lastTs !== p.ts) continue;
    const at = q.prices.flatMap((price, i) => (price === p.priceAmerican && q.lines[i] === p.line ? [i] : []));
    const i = at.length === 1 ? at[0] : at.find((j) => (q.outcomes[j] ?? '').toLowerCase().includes(p.selection));
    if (i !== undefined) return { q, i };
  }
  return null;
}

const sittingOf = (o: EvOpportunity): string => {
  const c = clockPrice(o);
  if (c === null) return 'unknown';
  const found = quoteOf(c.price, o.market, o.participant);
  return found === null ? 'not found' : found.q.stale ? 'sits by design' : 'not sitting';
};
process.stdout.write(
  'stale rows of the default page: phase | k (age / threshold) | age / threshold s | clock price: book, role | sitting | EV vs references % | EV vs the true fair %\n',
);
/** How many of its book's thresholds old the price a record's clock runs on is, and that age in s. */
const ageOf = (o: EvOpportunity): { seconds: number; k: number; limitSeconds: number } => {
  const clock = staleClockOfRecord(o);
  const seconds = (now - clock.freshUntil) / 1000 + clock.limitSeconds;
  return { seconds, k: seconds / clock.limitSeconds, limitSeconds: clock.limitSeconds };
};
for (const o of stalePage) {
  const c = clockPrice(o);
  const age = ageOf(o);
  const bet = quoteOf(o.legs[0] as OpportunityPrice, o.market, o.participant);
  const trueEv = bet === null ? null : ((bet.q.fair[bet.i] as number) * o.priceDecimal - 1) * 100;
  process.stdout.write(
    `  ${o.event.isLive ? 'live' : 'pre'} | ${age.k.toFixed(2)} | ${Math.round(age.seconds)} / ${age.limitSeconds} | ` +
      `${c?.price.book ?? '?'}, ${c?.role ?? '?'} | ${sittingOf(o)} | ${o.methods.power.evPercent.toFixed(2)} | ${trueEv === null ? 'n/a' : trueEv.toFixed(2)}\n`,
  );
}

// The default page under other very-stale factors, on the same records (their clocks as this
// run's processors left them, re-timed for the configured factor): which rows each would drop.
const kOf = (o: EvOpportunity): number => ageOf(o).k;
const byFactor = [2, 3, 4, 5, 10].map((f) => {
  const p = rows.filter((o) => !isPhantom(o, now, { ...DEFAULT_PHANTOM_POLICY, veryStaleFactor: f })).slice(0, 50);
  return `${f}: ${p.filter(measured).length} of ${p.length}`;
});
// The recordings' buckets (bench/stale-outcomes.ts) past the first: a stale row is at k >= 1.
const buckets = K_BUCKETS.filter((b) => b.low >= 1).map(({ label, low, high }) => {
  const inBucket = rows.filter((o) => measured(o) && kOf(o) >= low && kOf(o) < high);
  return `${label}: ${inBucket.length} (${inBucket.filter((o) => o.event.isLive).length} live, ${inBucket.filter((o) => sittingOf(o) === 'sits by design').length} sat on)`;
});
const phaseShare = (live: boolean): string => {
  const list = rows.filter((o) => o.event.isLive === live);
  const stale = list.filter(measured);
  return `${stale.length} of ${list.length} (${list.length === 0 ? 'n/a' : ((100 * stale.length) / list.length).toFixed(1)} %), ${stale.filter((o) => kOf(o) >= 2).length} of them at k 2 or more`;
};
process.stdout.write(
  `stale share of every +EV row: live ${phaseShare(true)}; pre-match ${phaseShare(false)}\n` +
    `default page stale by very-stale factor (this run's factor ${DEFAULT_PHANTOM_POLICY.veryStaleFactor}): ${byFactor.join('; ')}\n` +
    `every stale +EV row by k: ${buckets.join('; ')}\n`,
);
