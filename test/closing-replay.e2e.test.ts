import { describe, expect, it } from 'vitest';
import { parseRecordingLine } from '../pipeline/feeds/theoddsapi/index.js';
import { readLines } from '../pipeline/feeds/read-lines.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { closingFair, decimal, pricesOf, replayThroughSystem } from './support/recorded-closes.js';
import type { Price, RecordedEvent } from './support/recorded-closes.js';

/**
 * Closing lines and CLV on the real NFL week-10 recording, checked against values computed here
 * from the recorded prices alone: for every game, the close is the last snapshot before its
 * kickoff (the first snapshot at or after its commence_time), captured at that kickoff
 * snapshot; the closing fair probability is LowVig's market (the one sharp book recorded, else
 * BetOnline) de-vigged by the power method; each +EV opportunity detected before the kickoff is
 * graded CLV % = (closing fair probability x entry decimal - 1) x 100. The recording has no
 * scores, so nothing is settled.
 */
const RECORDING = 'theoddsapi_v4_nfl_2025wk10_snapshots.jsonl.gz';
const NFL_RECORDING = locateRecording(RECORDING) ?? '';
const present = NFL_RECORDING !== '';
if (!present) console.warn(`skipping the closing-line replay: ${missingRecordingNote(RECORDING)}`);

describe('closing lines and CLV on the real NFL recording', () => {
  it.runIf(present)(
    "captures every book's last pre-match price at each kickoff and grades pre-kickoff +EV against it",
    async () => {
      const snapshots: RecordedSnapshot[] = [];
      for await (const line of readLines(NFL_RECORDING)) {
        const s = parseRecordingLine(line);
        if (s) snapshots.push(s);
      }
      // Per recorded game: the last pre-match snapshot's prices and the kickoff snapshot's time.
      const games = new Map<string, { prices: Price[]; lastPre: number | null; kickoff: number | null }>();
      for (const s of snapshots) {
        for (const e of s.data as RecordedEvent[]) {
          const g = games.get(e.id) ?? { prices: [], lastPre: null, kickoff: null };
          games.set(e.id, g);
          if (g.kickoff !== null) continue;
          if (s.timestamp >= Date.parse(e.commence_time)) g.kickoff = s.timestamp;
          else {
            g.prices = pricesOf(e);
            g.lastPre = s.timestamp;
          }
        }
      }
      const byTime = new Map(snapshots.map((s) => [s.timestamp, s.data as RecordedEvent[]]));
      const closed = [...games].filter(([, g]) => g.kickoff !== null && g.lastPre !== null);
      expect(closed.length).toBeGreaterThan(10);

      const { sys, canonical } = await replayThroughSystem(NFL_RECORDING);
      try {
        let lines = 0;
        let graded = 0;
        for (const [recordedId, g] of closed) {
          const eventId = canonical.get(recordedId);
          expect(eventId, recordedId).toBeDefined();
          const rows = await sys.store.query<{
            sportsbook: string;
            market: string;
            selection: string;
            line: number | null;
            odds_american: number;
            no_vig_power: number | null;
            captured: string;
          }>(
            'SELECT sportsbook, market, selection, line, odds_american, no_vig_power, toUnixTimestamp64Milli(captured_at) AS captured FROM closing_odds FINAL WHERE event_id = {e:String}',
            { e: eventId },
          );
          const key = (x: {
            book?: string;
            sportsbook?: string;
            market: string;
            selection: string;
            line: number | null;
            american?: number;
            odds_american?: number;
          }): string =>
            `${x.book ?? x.sportsbook}|${x.market}|${x.selection}|${x.line === null ? '' : Number(x.line)}|${x.american ?? x.odds_american}`;
          expect(rows.map(key).sort(), `closes of ${String(eventId)}`).toEqual(g.prices.map(key).sort());
          for (const r of rows) {
            expect(Number(r.captured), `${String(eventId)} captured at its kickoff snapshot`).toBe(g.kickoff);
            const fair = closingFair(g.prices, { market: r.market, selection: r.selection, line: r.line === null ? null : Number(r.line) });
            if (fair === null) expect(r.no_vig_power).toBeNull();
            else expect(Number(r.no_vig_power)).toBeCloseTo(fair, 5);
          }
          lines += rows.length;

          // Every +EV occurrence detected on a pre-match snapshot, graded against the recorded close
          // (its last version may be live: the price row lives on into the game).
          const evs = await sys.store.query<{ id: string; detected: string }>(
            "SELECT id, toUnixTimestamp64Milli(detected_at) AS detected FROM opportunities FINAL WHERE kind = 'ev' AND event_id = {e:String} AND toUnixTimestamp64Milli(detected_at) < {kickoff:Int64}",
            { e: eventId, kickoff: g.kickoff },
          );
          const grades = await sys.store.query<{
            opportunity_id: string;
            detected: string;
            sportsbook: string;
            market: string;
            selection: string;
            line: number | null;
            odds_american: number;
            clv_percent: number | null;
            closing_no_vig_probability: number | null;
            result: string | null;
          }>(
            `SELECT opportunity_id, toUnixTimestamp64Milli(detected_at) AS detected, sportsbook, market, selection, line, odds_american,
                  clv_percent, closing_no_vig_probability, result FROM clv_grades FINAL WHERE event_id = {e:String}`,
            { e: eventId },
          );
          expect(grades.map((x) => `${x.opportunity_id}@${x.detected}`).sort()).toEqual(evs.map((x) => `${x.id}@${x.detected}`).sort());
          for (const grade of grades) {
            const line = grade.line === null ? null : Number(grade.line);
            // The entry is the price the book showed in the snapshot the opportunity was detected on.
            const detectedOn = byTime.get(Number(grade.detected))?.find((e) => e.id === recordedId);
            const entry = detectedOn
              ? pricesOf(detectedOn).find(
                  (x) => x.book === grade.sportsbook && x.market === grade.market && x.selection === grade.selection && x.line === line,
                )
              : undefined;
            expect(entry?.american, `entry price of ${grade.opportunity_id}`).toBe(Number(grade.odds_american));
            const fair = closingFair(g.prices, { market: grade.market, selection: grade.selection, line });
            expect(grade.result).toBeNull();
            if (fair === null) {
              expect(grade.clv_percent).toBeNull();
              continue;
            }
            expect(Number(grade.closing_no_vig_probability)).toBeCloseTo(fair, 5);
            expect(Number(grade.clv_percent)).toBeCloseTo((fair * decimal(Number(grade.odds_american)) - 1) * 100, 3);
            graded++;
          }
        }
        console.info(
          `NFL recording: ${closed.length} games closed, ${lines} closing lines, ${graded} pre-kickoff +EV opportunities graded against the recorded close`,
        );
        expect(graded).toBeGreaterThan(0);

        const r = await sys.get('/api/v1/historical/clv?group_by=devig_book&from=2025-11-01&to=2025-11-30', sys.demoKeys.enterprise);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const groups = (r.body['data'] as { groups: { group_key: string; clv_count: number; total_graded: number }[] }).groups;
        expect(groups.reduce((s, x) => s + x.clv_count, 0)).toBe(graded);
        expect(groups.every((x) => x.total_graded === 0)).toBe(true);
        expect((await sys.get('/api/v1/gamestate', sys.demoKeys.enterprise)).body['data']).toEqual({});
      } finally {
        await sys.close();
      }
    },
    300_000,
  );
});
