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
    changes: 11732,
    byType: {
      'create:low_hold': 2941,
      'create:middle': 1062,
      'update:middle': 954,
      'expire:middle': 903,
      'expire:low_hold': 2362,
      'create:ev': 559,
      'update:low_hold': 1237,
      'update:ev': 1251,
      'expire:ev': 323,
      'create:arbitrage': 71,
      'expire:arbitrage': 26,
      'update:arbitrage': 43,
    },
    stream: '3e2bff291dc422806034a58b8043a94d0a3f01eef01dfc05cc307c00bccfbead',
    active: 'd7e7cf4efefe7f0b69f9639e2d39e5794165a3d43669a72300b5cb1b7c7a9c7e',
  },
  'synthetic-1000': {
    changes: 9029,
    byType: {
      'create:low_hold': 2434,
      'create:middle': 879,
      'update:middle': 646,
      'expire:middle': 720,
      'expire:low_hold': 1855,
      'create:ev': 516,
      'update:low_hold': 925,
      'expire:ev': 280,
      'update:ev': 651,
      'create:arbitrage': 64,
      'expire:arbitrage': 19,
      'update:arbitrage': 40,
    },
    stream: 'd49cc07f5e20c2b5d19cb2828e4783e160dbde1c8ae2c7a20a5cb32ab6badf8a',
    active: 'da9622148120b71db58e31d11e8ad70d793631f98f17af353cf566b30727165b',
  },
  'synthetic-7': {
    changes: 9034,
    byType: {
      'create:low_hold': 2464,
      'create:middle': 689,
      'update:middle': 389,
      'expire:middle': 613,
      'expire:low_hold': 2010,
      'create:ev': 558,
      'update:low_hold': 906,
      'update:ev': 944,
      'expire:ev': 322,
      'create:arbitrage': 71,
      'expire:arbitrage': 26,
      'update:arbitrage': 42,
    },
    stream: '2110d29f1886ececbc04c061929e37df7b6269fbdf01a2f52904aa53e4d084c0',
    active: 'be04eb71c0ff6c594eaea257ccf1a93c229d64e2deac95c39dd7176d4af43c72',
  },
  simulator: {
    changes: 18081,
    byType: {
      'create:low_hold': 1081,
      'create:ev': 1143,
      'create:arbitrage': 2064,
      'update:low_hold': 883,
      'expire:ev': 1003,
      'expire:low_hold': 937,
      'create:middle': 2456,
      'update:ev': 2773,
      'expire:middle': 2368,
      'update:middle': 903,
      'expire:arbitrage': 1905,
      'update:arbitrage': 565,
    },
    stream: 'ee3d1210279f767af032173f4e878567a3f1a8ad8e77c29a85a240067b6cc679',
    active: '5e87343d7e403108fe6831850415cd3c815a92d6352ef861ed9e7c2aa476f323',
  },
  nfl: {
    changes: 5319,
    byType: {
      'create:middle': 448,
      'create:ev': 96,
      'create:low_hold': 175,
      'expire:middle': 382,
      'update:ev': 563,
      'update:middle': 2653,
      'update:low_hold': 723,
      'expire:low_hold': 158,
      'expire:ev': 88,
      'create:arbitrage': 15,
      'update:arbitrage': 3,
      'expire:arbitrage': 15,
    },
    stream: '8499297532d6864b8d194350a4961fb1960477059074ec3778bfddc71e41a245',
    active: '8f2e33673ecd6dde8b8ad1f36cdcf976059696e5b913481edff92cf68a3bea82',
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
