import type { CanonicalEvent, MarketId, OddsTick, SelectionType } from '../schemas/index.js';
import { probabilityToAmerican } from '../pipeline/odds-math/index.js';
import { OpportunityProcessor } from '../pipeline/opportunities/index.js';
import type { OpportunityInput } from '../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../pipeline/snapshot/index.js';
import type { BenchFigure } from './report.js';

/**
 * Opportunity detection: ticks/s through the snapshot processor and the four engines, against
 * the snapshot processor alone on the same ticks in the same run; and tick-to-opportunity
 * latency (time from a tick entering the snapshot processor to the opportunity changes it
 * causes), against the snapshot's own per-tick time. Median of 3 runs each; about 10-15 s.
 *
 * The ticks are synthetic and seeded: 300 NBA events, 3 sharp and 10 soft books, moneyline,
 * spreads and totals at two lines each, and four player props per event; each tick moves one
 * book's price (sharps near the fair price with a 2.5 % margin, soft books with a 4.5 % margin,
 * their own noise and lag), 2 % are suspensions. That yields +EV, arbitrage, middles and low-hold
 * at rates of the same order as real boards.
 */

const EVENTS = 300;
const TICKS = 40_000;
const SHARP = ['pinnacle', 'circa', 'bookmaker'];
const SOFT = ['draftkings', 'fanduel', 'betmgm', 'caesars', 'espnbet', 'betrivers', 'fanatics', 'hardrockbet', 'bovada', 'bet365'];
const BOOKS = [...SHARP, ...SOFT];
const T0 = Date.UTC(2025, 10, 9, 12);

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Market {
  eventId: string;
  market: MarketId;
  sides: [SelectionType, SelectionType];
  line: number | null;
  participant: string | null;
  statCategory: string | null;
  fair: number;
}

function eventsAndMarkets(): { events: CanonicalEvent[]; markets: Market[] } {
  const rnd = prng(7);
  const events: CanonicalEvent[] = [];
  const markets: Market[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const id = `nba-bench-${i}`;
    events.push({ id, sport: 'basketball', league: 'nba', homeTeamId: `home-${i}`, awayTeamId: `away-${i}`, startTime: T0 + 3_600_000 * (2 + (i % 48)), status: 'upcoming', isLive: false, externalIds: {}, updatedAt: T0 });
    const spread = -Math.round(rnd() * 20) / 2 - 0.5;
    const total = 210.5 + Math.round(rnd() * 30);
    markets.push({ eventId: id, market: 'moneyline', sides: ['home', 'away'], line: null, participant: null, statCategory: null, fair: 0.35 + rnd() * 0.3 });
    for (const d of [0, 1]) {
      markets.push({ eventId: id, market: 'point_spread', sides: ['home', 'away'], line: spread + d, participant: null, statCategory: null, fair: 0.5 - 0.03 * d });
      markets.push({ eventId: id, market: 'total_points', sides: ['over', 'under'], line: total + d, participant: null, statCategory: null, fair: 0.5 - 0.02 * d });
    }
    for (let p = 0; p < 4; p++) {
      markets.push({ eventId: id, market: 'player_prop', sides: ['over', 'under'], line: 14.5 + p * 3, participant: `player-${i}-${p}`, statCategory: 'points', fair: 0.5 });
    }
  }
  return { events, markets };
}

function price(p: number): number {
  return probabilityToAmerican(Math.min(0.97, Math.max(0.03, p)));
}

export function syntheticTicks(count = TICKS): { events: CanonicalEvent[]; ticks: OddsTick[] } {
  const { events, markets } = eventsAndMarkets();
  const rnd = prng(11);
  const ticks: OddsTick[] = [];
  for (let n = 0; n < count; n++) {
    const m = markets[Math.floor(rnd() * markets.length)];
    if (!m) continue;
    m.fair = Math.min(0.9, Math.max(0.1, m.fair + (rnd() - 0.5) * 0.01));
    const book = BOOKS[Math.floor(rnd() * BOOKS.length)] ?? 'pinnacle';
    const sharp = SHARP.includes(book);
    const margin = sharp ? 0.0125 : 0.0225;
    const noise = (rnd() - 0.5) * (sharp ? 0.004 : 0.03);
    const ts = T0 + n * 5;
    const suspended = rnd() < 0.02;
    const line = (s: SelectionType): number | null => (m.line === null ? null : s === 'away' ? 0 - m.line : m.line);
    const base = { eventId: m.eventId, book, market: m.market, participant: m.participant, statCategory: m.statCategory, ts, isLive: false, bookEventId: `${book}-${m.eventId}`, selectionId: null };
    const [a, b] = m.sides;
    const pa = suspended ? null : price(m.fair + noise + margin);
    const pb = suspended ? null : price(1 - m.fair - noise + margin);
    ticks.push({ ...base, selection: a, line: line(a), priceAmerican: pa, status: pa === null ? 'suspended' : 'open' });
    ticks.push({ ...base, selection: b, line: line(b), priceAmerican: pb, status: pb === null ? 'suspended' : 'open' });
  }
  return { events, ticks };
}

interface Run {
  ms: number;
  latencies: Float64Array;
  changes: number;
}

type Mode = 'snapshot' | 'tick' | 'batch';
const BATCH = 1000;

function run(events: readonly CanonicalEvent[], ticks: readonly OddsTick[], mode: Mode): Run {
  const snapshot = new SnapshotProcessor();
  const processor = new OpportunityProcessor();
  processor.handleBatch(events.map((event) => ({ type: 'event' as const, event })), T0);
  const latencies = new Float64Array(mode === 'batch' ? 0 : ticks.length);
  let changes = 0;
  let k = 0;
  const t0 = performance.now();
  if (mode === 'batch') {
    for (let i = 0; i < ticks.length; i += BATCH) {
      const inputs: OpportunityInput[] = [];
      let now = T0;
      for (const t of ticks.slice(i, i + BATCH)) {
        const change = snapshot.handle(t, t.ts);
        if (change) inputs.push({ type: 'odds', change });
        now = t.ts;
      }
      changes += processor.handleBatch(inputs, now).length;
    }
    return { ms: performance.now() - t0, latencies, changes };
  }
  for (const t of ticks) {
    const start = performance.now();
    const change = snapshot.handle(t, t.ts);
    let produced = 0;
    if (change && mode === 'tick') produced = processor.handle({ type: 'odds', change }, t.ts).length;
    const end = performance.now();
    changes += produced;
    // Snapshot only: every tick's time; with the engines: ticks that changed an opportunity.
    if (mode === 'snapshot' || produced > 0) latencies[k++] = (end - start) * 1000;
  }
  return { ms: performance.now() - t0, latencies: latencies.subarray(0, k), changes };
}

function percentile(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

export async function benchOpportunities(): Promise<BenchFigure[]> {
  const { events, ticks } = syntheticTicks();
  run(events, ticks.slice(0, 20_000), 'tick'); // warm-up: JIT, not measured
  const runs: Record<Mode, Run[]> = { snapshot: [], tick: [], batch: [] };
  for (let i = 0; i < 3; i++) for (const mode of ['snapshot', 'tick', 'batch'] as const) runs[mode].push(run(events, ticks, mode));
  const rate = (mode: Mode): number => median(runs[mode].map((r) => ticks.length / (r.ms / 1000)));
  const latencies = runs.tick[1]?.latencies ?? new Float64Array();
  const baseLatencies = runs.snapshot[1]?.latencies ?? new Float64Array();
  const snapshotOnly = { name: 'snapshot only', value: rate('snapshot') };
  return [
    { name: 'ticks/s, snapshot + 4 engines, per tick', value: rate('tick'), unit: 'ticks/s', baseline: snapshotOnly },
    { name: `ticks/s, snapshot + 4 engines, batches of ${BATCH}`, value: rate('batch'), unit: 'ticks/s', baseline: snapshotOnly },
    { name: 'tick-to-opportunity latency p50', value: percentile(latencies, 0.5), unit: 'µs', baseline: { name: 'snapshot p50', value: percentile(baseLatencies, 0.5) } },
    { name: 'tick-to-opportunity latency p99', value: percentile(latencies, 0.99), unit: 'µs', baseline: { name: 'snapshot p99', value: percentile(baseLatencies, 0.99) } },
    { name: 'opportunity changes per 1000 ticks (per tick)', value: ((runs.tick[1]?.changes ?? 0) / ticks.length) * 1000, unit: 'changes', baseline: { name: 'ticks', value: 1000 } },
  ];
}
