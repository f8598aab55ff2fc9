import { LEAGUES, TEAMS, TOPICS, TOPIC_CONFIGS } from '../../schemas/index.js';
import type { Opportunity, RawTick } from '../../schemas/index.js';
import { partitionFor } from '../../pipeline/bus/index.js';
import type { Bus, BusRecord } from '../../pipeline/bus/index.js';
import { Normalizer } from '../../pipeline/normalize/index.js';
import { OpportunityProcessor, fingerprint } from '../../pipeline/opportunities/index.js';
import type { OpportunityInput, OpportunityOptions } from '../../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../../pipeline/snapshot/index.js';
import { inWriteOrder } from '../../pipeline/stages/index.js';

/** The columns of `odds_ticks` a stored tick's identity is read from, as `storedTickIdentity` reads them. */
export const STORED_TICK_COLUMNS =
  'event_id, sportsbook, market, selection, line, participant, stat_category, odds_american, status, is_live, book_event_id, toUnixTimestamp64Milli(tick_time) AS ts';

/** A row of `odds_ticks` (selected with STORED_TICK_COLUMNS) as its `tickIdentity`. */
export function storedTickIdentity(r: Record<string, unknown>): string {
  return tickIdentity({
    eventId: String(r['event_id']),
    book: String(r['sportsbook']),
    market: String(r['market']),
    selection: String(r['selection']),
    line: r['line'] as number | null,
    participant: r['participant'] as string | null,
    statCategory: r['stat_category'] as string | null,
    priceAmerican: r['odds_american'] as number | null,
    status: String(r['status']),
    isLive: Boolean(r['is_live']),
    bookEventId: String(r['book_event_id']),
    ts: Number(r['ts']),
  });
}

/** What identifies a stored tick (the columns of `odds_ticks`' replacing key). */
export function tickIdentity(t: {
  eventId: string;
  book: string;
  market: string;
  selection: string;
  line: number | null;
  participant: string | null;
  statCategory: string | null;
  priceAmerican: number | null;
  status: string;
  isLive: boolean;
  bookEventId: string;
  ts: number;
}): string {
  return [
    t.eventId,
    t.book,
    t.market,
    t.selection,
    t.line,
    t.participant,
    t.statCategory,
    t.priceAmerican,
    t.status,
    t.isLive,
    t.bookEventId,
    t.ts,
  ].join('|');
}

export interface Outcome {
  /** Distinct ticks. */
  ticks: Set<string>;
  /** Row key -> price, time and liveness of the latest row. */
  board: Map<string, string>;
  /** Active opportunity id -> its fingerprint (every field but those that follow the clock or the lifecycle). */
  opportunities: Map<string, string>;
  /** Canonical event ids. */
  events: Set<string>;
}

/**
 * What an uninterrupted pipeline yields from the input, with the processors called one input at
 * a time in feed order: the distinct ticks, the final board and the active opportunities. One
 * opportunity processor per partition of the snapshot changelog, as the pipeline keeps them:
 * each learns its books' stale thresholds from its own partition's rows.
 */
export function uninterrupted(raw: readonly RawTick[], now: number, options: OpportunityOptions = {}): Outcome {
  const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
  const snapshot = new SnapshotProcessor();
  const partitions = Array.from({ length: TOPIC_CONFIGS[TOPICS.snapshot].partitions }, () => new OpportunityProcessor(options));
  const of = (eventId: string): OpportunityProcessor => partitions[partitionFor(eventId, partitions.length)] as OpportunityProcessor;
  const out: Outcome = { ticks: new Set(), board: new Map(), opportunities: new Map(), events: new Set() };
  for (const r of raw) {
    const result = normalizer.handle(r, now);
    for (const event of result.events) {
      out.events.add(event.id);
      of(event.id).handle({ type: 'event', event }, now);
    }
    const tick = result.tick;
    if (!tick) continue;
    out.ticks.add(tickIdentity(tick));
    const change = snapshot.handle(tick, now);
    if (!change) continue;
    if (change.row) out.board.set(change.key, boardEntry(change.row));
    else out.board.delete(change.key);
    of(change.eventId).handle({ type: 'odds', change }, now);
  }
  for (const p of partitions) for (const o of p.active()) out.opportunities.set(o.id, comparable(o));
  return out;
}

/**
 * An opportunity's fingerprint with its keys sorted: a version read back from Avro carries its
 * fields in the schema's order, not in the order the processor built them.
 */
export function comparable(o: Opportunity): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
    );
  };
  return JSON.stringify(sorted(JSON.parse(fingerprint(o))));
}

/**
 * A fingerprint (`comparable` or `fingerprint`) without the stale clock of the record's last build
 * (`staleAfterSeconds`, `freshUntil`): what tells a record built at another step of the
 * thresholds from one that differs in anything else.
 */
export function withoutStaleClock(text: string): string {
  const o = JSON.parse(text) as Record<string, unknown>;
  delete o['staleAfterSeconds'];
  delete o['freshUntil'];
  return JSON.stringify(o);
}

/** Fingerprints by id without their stale clocks (`withoutStaleClock`). */
export function withoutStaleClocks(fingerprints: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...fingerprints].map(([id, f]) => [id, withoutStaleClock(f)]));
}

function boardEntry(row: { priceAmerican: number; ts: number; isLive: boolean }): string {
  return `${row.priceAmerican}|${row.ts}|${row.isLive}`;
}

/** The board and the active opportunities as the changelogs on the bus say (what API views build from). */
export async function changelogOutcome(bus: Bus): Promise<Pick<Outcome, 'board' | 'opportunities'>> {
  const board = new Map<string, string>();
  await bus.readToEnd(TOPICS.snapshot, (records) => {
    for (const r of records) {
      if (r.value?.row) board.set(r.key, boardEntry(r.value.row));
      else board.delete(r.key);
    }
  });
  const opportunities = new Map<string, string>();
  await bus.readToEnd(TOPICS.opportunities, (records) => {
    for (const r of records) {
      if (r.value) opportunities.set(r.key, comparable(r.value));
      else opportunities.delete(r.key);
    }
  });
  return { board, opportunities };
}

/**
 * The active opportunities (`comparable`) of one processor per partition that took the events and
 * snapshot changelogs as the bus holds them, merged in the order they were written as a restore
 * replays them. What the pipeline must publish however its processes stopped, restarted or handed
 * partitions over: a partition's odds changes come in the order the normalizer wrote its raw
 * partitions' batches (raw ticks are keyed by league), which is not the feed's order that
 * `uninterrupted` follows, and a record's stale clock follows that order
 * (test/partition-upstream-order-clocks.test.ts).
 */
export async function replayedOpportunities(bus: Bus, now: number, options: OpportunityOptions = {}): Promise<Map<string, string>> {
  type Written = { timestamp: number; input: OpportunityInput };
  const written = new Map<number, { events: Written[]; odds: Written[] }>();
  const of = (partition: number): { events: Written[]; odds: Written[] } => {
    let p = written.get(partition);
    if (!p) written.set(partition, (p = { events: [], odds: [] }));
    return p;
  };
  await bus.readToEnd(TOPICS.events, (records: readonly BusRecord<typeof TOPICS.events>[]) => {
    for (const r of records) if (r.value) of(r.partition).events.push({ timestamp: r.timestamp, input: { type: 'event', event: r.value } });
  });
  await bus.readToEnd(TOPICS.snapshot, (records: readonly BusRecord<typeof TOPICS.snapshot>[]) => {
    for (const r of records) if (r.value) of(r.partition).odds.push({ timestamp: r.timestamp, input: { type: 'odds', change: r.value } });
  });
  const out = new Map<string, string>();
  for (const [, p] of [...written].sort((a, b) => a[0] - b[0])) {
    const processor = new OpportunityProcessor(options);
    processor.handleBatch(
      inWriteOrder(p.events, p.odds).map((w) => w.input),
      now,
    );
    for (const o of processor.active()) out.set(o.id, comparable(o));
  }
  return out;
}
