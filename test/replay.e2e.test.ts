import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../pipeline/clock.js';
import { EMPTY_STATE, ReplayFeed, mapSnapshot, parseRecordingLine } from '../pipeline/feeds/theoddsapi/index.js';
import { silentLogger } from '../pipeline/feeds/feed-runtime.js';
import { readLines } from '../pipeline/feeds/read-lines.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

const FIXTURE = resolve('pipeline/feeds/theoddsapi/fixtures/nfl-sunday.jsonl');
const NFL_RECORDING = 'theoddsapi_v4_nfl_2025wk10_snapshots.jsonl.gz';
const WORLD_CUP_RECORDING = 'theoddsapi_v4_fifa_wc2026_snapshots.jsonl.gz';

interface RecordedEvent {
  id: string;
  home_team: string;
  away_team: string;
  commence_time: string;
}

async function loadSnapshots(file: string): Promise<RecordedSnapshot[]> {
  const out: RecordedSnapshot[] = [];
  for await (const line of readLines(file)) {
    const s = parseRecordingLine(line);
    if (s) out.push(s);
  }
  return out;
}

type Row = Record<string, unknown>;

async function allPages(sys: TestSystem, path: string, key: string, pageSize: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const r = await sys.get(`${path}${path.includes('?') ? '&' : '?'}limit=${pageSize}&offset=${offset}`, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    rows.push(...(r.body['data'] as Row[]));
    if (!(r.body['pagination'] as Row)['has_more']) return rows;
  }
}

/**
 * Replays a recording through the whole system and, after every snapshot, checks the API
 * against it: each recorded event is exactly one canonical event (same id every time, never two
 * recorded events on one id) with the recorded teams and start time, and /odds serves exactly
 * the recorded prices, nothing more.
 */
interface ReplayFindings {
  snapshots: number;
  events: number;
  rowsChecked: number;
  opportunities: Record<string, number>;
  sharpBooks: string[];
  /** Splits served and stored: a recording has none. */
  splits: number;
}

async function replayAndCheck(file: string): Promise<ReplayFindings> {
  const snapshots = await loadSnapshots(file);
  const clock = new ManualClock(0);
  const canonicalOf = new Map<string, string>();
  let checked = 0;
  let rowsChecked = 0;
  let failure: unknown = null;

  const check = async (snapshot: RecordedSnapshot): Promise<void> => {
    expect(await sys.drained()).toBe(true);
    const key = sys.demoKeys.enterprise;
    const events = await allPages(sys, '/api/v1/events', key, 500);
    const byExternal = new Map<string, Row[]>();
    for (const e of events) {
      for (const ext of new Set(Object.values(e['external_ids'] as Record<string, string>))) {
        byExternal.set(ext, [...(byExternal.get(ext) ?? []), e]);
      }
    }
    const expected = mapSnapshot(snapshot.data, snapshot.timestamp, EMPTY_STATE).ticks;
    for (const recorded of snapshot.data as RecordedEvent[]) {
      const matches = byExternal.get(recorded.id) ?? [];
      if (!expected.some((t) => t.bookEventId === recorded.id)) continue;
      expect(
        matches.map((m) => m['id']),
        `recorded event ${recorded.id}`,
      ).toHaveLength(1);
      const e = matches[0] as Row;
      const id = e['id'] as string;
      expect(canonicalOf.get(recorded.id) ?? id, `recorded event ${recorded.id} changed canonical id`).toBe(id);
      canonicalOf.set(recorded.id, id);
      expect([e['home_team'], e['away_team'], e['start_time']]).toEqual([
        recorded.home_team,
        recorded.away_team,
        new Date(recorded.commence_time).toISOString(),
      ]);

      const side = (outcome: string): string =>
        outcome === recorded.home_team ? 'home' : outcome === recorded.away_team ? 'away' : outcome.toLowerCase();
      const want = expected
        .filter((t) => t.bookEventId === recorded.id)
        .map((t) => `${t.book}|${t.market}|${side(t.outcome)}|${t.line ?? ''}|${t.priceAmerican ?? ''}`)
        .sort();
      const served = (await allPages(sys, `/api/v1/odds?event=${id}`, key, 1000))
        .map(
          (o) =>
            `${String(o['sportsbook'])}|${String(o['market'])}|${String(o['selection_type'])}|${String(o['line'] ?? '')}|${String(o['odds_american'])}`,
        )
        .sort();
      expect(served, `odds of ${id} at ${new Date(snapshot.timestamp).toISOString()}`).toEqual(want);
      rowsChecked += want.length;
    }
    const ids = [...canonicalOf.values()];
    expect(new Set(ids).size, 'two recorded events share one canonical id').toBe(ids.length);
    checked++;
  };

  // The feed's pause between snapshots is where the previous snapshot is checked.
  const feed = new ReplayFeed({
    file,
    speed: 1e12,
    clock,
    logger: silentLogger,
    sleep: async () => {
      try {
        const s = snapshots[checked];
        if (s && failure === null) await check(s);
      } catch (e) {
        failure ??= e;
      }
    },
  });
  // Immediate sink flushes: the check after each snapshot waits for every stage to catch up.
  const sys: TestSystem = await startTestSystem({ SINK_MAX_WAIT_MS: '0' }, { clock, feed: () => feed });
  try {
    const stats = await feed.done;
    expect(stats.completed).toBe(true);
    const last = snapshots[checked];
    if (failure === null && last) await check(last);
    if (failure !== null) throw failure;
    expect(checked).toBe(snapshots.length);
    // What the opportunity engines found over the whole replay, as analysts see it.
    const byKind = await sys.store.query<{ kind: string; n: number }>(
      'SELECT kind, count() AS n FROM opportunities FINAL GROUP BY kind ORDER BY kind',
    );
    const sharp = await sys.store.query<{ book: string }>(
      "SELECT DISTINCT JSONExtractString(record, 'sharpBook') AS book FROM opportunities FINAL WHERE kind = 'ev' ORDER BY book",
    );
    const storedSplits = await sys.store.query<{ n: number }>('SELECT toUInt32(count()) AS n FROM splits_history');
    const servedSplits = (await sys.get('/api/v1/splits', sys.demoKeys.enterprise)).body['data'] as Row[];
    return {
      splits: Number(storedSplits[0]?.n ?? 0) + servedSplits.length,
      snapshots: checked,
      events: canonicalOf.size,
      rowsChecked,
      opportunities: Object.fromEntries(byKind.map((r) => [r.kind, Number(r.n)])),
      sharpBooks: sharp.map((r) => r.book),
    };
  } finally {
    await sys.close();
  }
}

describe('replay of recorded The Odds API snapshots through the whole system', () => {
  it('serves exactly the recorded prices after every snapshot of the project fixture', async () => {
    const r = await replayAndCheck(FIXTURE);
    expect(r.snapshots).toBe(3);
    expect(r.events).toBe(3);
    expect(r.splits).toBe(0);
  });

  const recordings: [string, string, number, number][] = [
    ['the real NFL week 10 recording', NFL_RECORDING, 122, 31],
    ['the real FIFA World Cup 2026 recording (three-way moneylines)', WORLD_CUP_RECORDING, 168, 35],
  ];
  for (const [name, recording, snapshots, events] of recordings) {
    const file = locateRecording(recording);
    if (file === null) console.warn(`skipping the replay of ${name}: ${missingRecordingNote(recording)}`);
    it.runIf(file !== null)(
      `serves exactly the recorded prices after every snapshot of ${name}`,
      async () => {
        const t0 = Date.now();
        const r = await replayAndCheck(file ?? '');
        console.info(
          `${name}: ${r.snapshots} snapshots, ${r.events} events, ${r.rowsChecked} served prices checked, opportunities ${JSON.stringify(r.opportunities)} (+EV references: ${r.sharpBooks.join(', ')}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
        );
        expect([r.snapshots, r.events, r.splits]).toEqual([snapshots, events, 0]);
        // The recordings carry no Pinnacle or Circa: +EV must be measured against the sharpest books present.
        expect(r.sharpBooks.length).toBeGreaterThan(0);
        expect(r.sharpBooks.every((b) => b === 'lowvig' || b === 'betonlineag')).toBe(true);
        expect(Object.keys(r.opportunities).sort()).toEqual(['arbitrage', 'ev', 'low_hold', 'middle']);
      },
      600_000,
    );
  }
});
