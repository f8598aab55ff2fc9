import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { locateRecording, missingRecordingNote } from '../../scripts/recordings/index.js';
import { LEAGUES, TEAMS, tierBookScopes } from '../../schemas/index.js';
import type { CanonicalEvent, OpportunityChange, RawTick } from '../../schemas/index.js';
import { ManualClock } from '../clock.js';
import { EMPTY_STATE, mapSnapshot, parseRecordingLine } from '../feeds/theoddsapi/index.js';
import { readLines } from '../feeds/read-lines.js';
import { MarketSimulator } from '../feeds/simulator/index.js';
import { Normalizer } from '../normalize/index.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { SYNTHETIC_T0, syntheticBoard } from './fixtures/synthetic-board.js';
import type { OpportunityOptions } from './config.js';
import { OpportunityProcessor } from './processor.js';
import type { OpportunityInput } from './processor.js';

// The engines' exact output over long recorded sequences, pinned by a hash of every change
// (each complete opportunity as JSON, so values, field order and emission order all count) and
// of the final active set. Written before the engines were made incremental (issue 16): any
// drift in what they emit fails here. The small hand-checked replay is replay.test.ts.
// PRINT_GOLDEN=1 prints the figures instead of comparing (after a deliberate change only).

interface Digest {
  changes: number;
  byType: Record<string, number>;
  stream: string;
  active: string;
}

class Recorder {
  private readonly hash = createHash('sha256');
  private count = 0;
  private readonly byType: Record<string, number> = {};

  add(changes: readonly OpportunityChange[]): void {
    for (const c of changes) {
      this.hash.update(JSON.stringify(c));
      this.hash.update('\n');
      this.count++;
      const k = `${c.type}:${c.opportunity.kind}`;
      this.byType[k] = (this.byType[k] ?? 0) + 1;
    }
  }

  digest(processor: OpportunityProcessor): Digest {
    const active = createHash('sha256').update(JSON.stringify(processor.active())).digest('hex');
    return { changes: this.count, byType: this.byType, stream: this.hash.digest('hex'), active };
  }
}

/** The low-hold threshold the digests were recorded at (the default was 2 then; it is 5 now). */
const RECORDED_LOW_HOLD_PERCENT = 2;
const HOBBY_AND_UP = { bookScopes: tierBookScopes(), lowHoldPercent: RECORDED_LOW_HOLD_PERCENT };

/**
 * The synthetic board with event changes mixed in: every 1,500 ticks one event goes live, moves
 * its start or ends (its opportunities expire); event 0 started days ago, so the periodic
 * eviction drops it while its books still quote.
 */
function synthetic(batch: number, options: OpportunityOptions): Digest {
  const { events, ticks } = syntheticBoard({ events: 60, steps: 12_000 });
  const byId = new Map<string, CanonicalEvent>(events.map((e) => [e.id, e]));
  const first = events[0];
  if (first) byId.set(first.id, { ...first, startTime: SYNTHETIC_T0 - 2 * 86_400_000 });
  const snapshot = new SnapshotProcessor();
  const processor = new OpportunityProcessor(options);
  const rec = new Recorder();
  rec.add(
    processor.handleBatch(
      [...byId.values()].map((event) => ({ type: 'event' as const, event })),
      SYNTHETIC_T0,
    ),
  );
  let inputs: OpportunityInput[] = [];
  let now = SYNTHETIC_T0;
  ticks.forEach((t, i) => {
    now = t.ts;
    if (i > 0 && i % 1500 === 0) {
      const n = i / 1500;
      const e = byId.get(`nba-bench-${(n * 7) % events.length}`);
      if (e) {
        const next: CanonicalEvent =
          n % 3 === 0
            ? { ...e, status: 'live', isLive: true, updatedAt: now }
            : n % 3 === 1
              ? { ...e, startTime: e.startTime + 1_800_000, updatedAt: now }
              : { ...e, status: 'final', updatedAt: now };
        byId.set(e.id, next);
        inputs.push({ type: 'event', event: next });
      }
    }
    const change = snapshot.handle(t, now);
    if (change) inputs.push({ type: 'odds', change });
    if (inputs.length >= batch) {
      rec.add(processor.handleBatch(inputs, now));
      inputs = [];
    }
  });
  rec.add(processor.handleBatch(inputs, now));
  return rec.digest(processor);
}

/** Raw ticks through the normalizer and the snapshot, in batches at one time each, events first. */
class Chain {
  readonly normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
  readonly snapshot = new SnapshotProcessor();
  readonly processor = new OpportunityProcessor(HOBBY_AND_UP);
  readonly rec = new Recorder();
  private lastSweep = Number.NEGATIVE_INFINITY;

  feed(raw: readonly RawTick[], now: number): void {
    const events: OpportunityInput[] = [];
    const odds: OpportunityInput[] = [];
    for (const r of raw) {
      const result = this.normalizer.handle(r, now);
      for (const event of result.events) events.push({ type: 'event', event });
      if (!result.tick) continue;
      const change = this.snapshot.handle(result.tick, now);
      if (change) odds.push({ type: 'odds', change });
    }
    if (now - this.lastSweep >= 60_000) {
      this.lastSweep = now;
      for (const event of this.normalizer.closeFinishedEvents(now)) {
        events.push({ type: 'event', event });
        for (const change of this.snapshot.closeEvent(event.id, now)) odds.push({ type: 'odds', change });
      }
    }
    this.rec.add(this.processor.handleBatch(events, now));
    this.rec.add(this.processor.handleBatch(odds, now));
  }
}

/** The simulator from a fixed seed: a small board played for three hours, games going live. */
function simulated(): Digest {
  const start = Date.UTC(2026, 10, 21, 12, 0);
  const clock = new ManualClock(start);
  const sim = new MarketSimulator({ seed: 7, clock, eventsPerLeague: 1, horizonMs: 4 * 3_600_000, liveShare: 0.3 });
  const chain = new Chain();
  chain.feed(sim.snapshot(), start);
  for (let now = start + 30_000; now <= start + 3 * 3_600_000; now += 30_000) {
    clock.set(now);
    chain.feed(sim.step(now, 40), now);
  }
  return chain.rec.digest(chain.processor);
}

const RECORDING = 'theoddsapi_v4_nfl_2025wk10_snapshots.jsonl.gz';
const NFL_RECORDING = locateRecording(RECORDING) ?? '';

/** The first 60 snapshots of the real NFL week (11 US books, kickoffs included). */
async function recorded(): Promise<Digest> {
  const chain = new Chain();
  let state = EMPTY_STATE;
  let n = 0;
  for await (const line of readLines(NFL_RECORDING)) {
    const s = parseRecordingLine(line);
    if (!s) continue;
    const mapped = mapSnapshot(s.data, s.timestamp, state);
    state = mapped.state;
    chain.feed(mapped.ticks, s.timestamp);
    if (++n >= 60) break;
  }
  return chain.rec.digest(chain.processor);
}

const EXPECTED: Record<string, Digest> = {
  'synthetic-tick': {
    changes: 10540,
    byType: {
      'create:low_hold': 2957,
      'create:middle': 1077,
      'update:middle': 703,
      'expire:middle': 918,
      'expire:low_hold': 2378,
      'create:ev': 561,
      'update:low_hold': 429,
      'update:ev': 1081,
      'expire:ev': 325,
      'create:arbitrage': 71,
      'expire:arbitrage': 26,
      'update:arbitrage': 14,
    },
    stream: 'd84ba7083f3cee358e8e5519970965e8c2ecec6c04044c426c100d495ae3f141',
    active: 'b56bbbba6a95f9692cc0ac17946b22631695290edd4042ddb25e5734217c01a6',
  },
  'synthetic-1000': {
    changes: 8080,
    byType: {
      'create:low_hold': 2434,
      'create:middle': 878,
      'update:middle': 432,
      'expire:middle': 719,
      'expire:low_hold': 1855,
      'create:ev': 517,
      'update:low_hold': 346,
      'expire:ev': 281,
      'update:ev': 523,
      'create:arbitrage': 64,
      'expire:arbitrage': 19,
      'update:arbitrage': 12,
    },
    stream: '1ceaf6c209328b5a7da188885286b26cc18c5d361e83d76968f2c9b18fe451d0',
    active: '1aa1b2eb332b7657dcd61b3cc288c1173f7afcd477ea84b738d2475082684f25',
  },
  'synthetic-7': {
    changes: 8268,
    byType: {
      'create:low_hold': 2479,
      'create:middle': 699,
      'update:middle': 271,
      'expire:middle': 623,
      'expire:low_hold': 2025,
      'create:ev': 560,
      'update:low_hold': 359,
      'update:ev': 817,
      'expire:ev': 324,
      'create:arbitrage': 71,
      'expire:arbitrage': 26,
      'update:arbitrage': 14,
    },
    stream: 'e4e1124ce9e18c311d46918c94932ea6bc64826f10c22eafd0236bdea3c77ce8',
    active: '2849d1fff13722f8e1b0329c8bf44f862bedd7254e47943aacb027626361a17f',
  },
  simulator: {
    changes: 17444,
    byType: {
      'create:low_hold': 1108,
      'create:ev': 1158,
      'create:arbitrage': 2193,
      'update:low_hold': 190,
      'update:ev': 2245,
      'create:middle': 2702,
      'expire:ev': 1025,
      'expire:low_hold': 962,
      'expire:middle': 2622,
      'expire:arbitrage': 2038,
      'update:arbitrage': 319,
      'update:middle': 882,
    },
    stream: 'a2c6d69b7c9db2f8a5fedad56bf4770dfc96f4fcb4880b25495b4ff2113bd4c6',
    active: 'cb64be3029f91dbbdc0242a0cfa59dc0b040fdfde2302d4f468df63d9355c86f',
  },
  nfl: {
    changes: 5185,
    byType: {
      'create:middle': 434,
      'create:ev': 96,
      'create:low_hold': 172,
      'expire:middle': 368,
      'update:ev': 547,
      'update:middle': 2572,
      'update:low_hold': 720,
      'expire:low_hold': 155,
      'expire:ev': 88,
      'create:arbitrage': 15,
      'update:arbitrage': 3,
      'expire:arbitrage': 15,
    },
    stream: '19e8986a8e75bb6dd5820f27faef0803a91c2477151c906f3a24d74ca43a7966',
    active: '2cd0e1c930642b1dbcd2c0c798d8d92a07c894db35f89e06500d0a2942e9d143',
  },
};

function check(name: string, actual: Digest): void {
  if (process.env['PRINT_GOLDEN'] === '1') {
    process.stdout.write(`golden ${name}: ${JSON.stringify(actual)}\n`);
    return;
  }
  expect(actual).toEqual(EXPECTED[name]);
}

// Long sequences on a shared CI machine: generous bounds, no timing asserted.
describe('the engines emit exactly the recorded opportunity stream', { timeout: 120_000 }, () => {
  it('synthetic board, one tick at a time, tier scopes', () => {
    check('synthetic-tick', synthetic(1, HOBBY_AND_UP));
  });

  it('synthetic board, batches of 1000, tier scopes', () => {
    check('synthetic-1000', synthetic(1000, HOBBY_AND_UP));
  });

  it('synthetic board, batches of 7, default options (but the recorded low-hold threshold)', () => {
    check('synthetic-7', synthetic(7, { lowHoldPercent: RECORDED_LOW_HOLD_PERCENT }));
  });

  it('simulator from a fixed seed through the normalizer', () => {
    check('simulator', simulated());
  });

  it.runIf(NFL_RECORDING !== '')('real NFL recording through the normalizer', async () => {
    check('nfl', await recorded());
  });
  if (NFL_RECORDING === '') process.stdout.write(`skipped: the NFL golden replay: ${missingRecordingNote(RECORDING)}\n`);
});
