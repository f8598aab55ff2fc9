import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordingLine } from '../pipeline/feeds/theoddsapi/index.js';
import { readLines } from '../pipeline/feeds/read-lines.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { closingFair, pricesOf, replayThroughSystem } from './support/recorded-closes.js';
import type { Price, RecordedEvent } from './support/recorded-closes.js';

/**
 * Closing lines on the real FIFA World Cup 2026 recording (22-25 June, hourly then every 15
 * minutes; three-way h2h with a Draw, and totals), checked against values computed here from the
 * recorded prices alone: for every match that kicks off inside the recording, the close is every
 * book's price in the last snapshot before its kickoff (the first snapshot at or after the
 * commence_time that snapshot states: kickoffs were delayed by a few minutes late in the
 * tournament's group stage), captured at that kickoff snapshot; the closing fair probability is
 * LowVig's market (the one sharp book recorded, else BetOnline) de-vigged by the power method
 * over all its outcomes (three for h2h). The count of matches closed and of closing lines, per
 * match and in all, is derived here and must equal what the pipeline stored. The recording has
 * no scores and no futures: nothing is settled.
 */
const RECORDING = 'theoddsapi_v4_fifa_wc2026_snapshots.jsonl.gz';
const WC_RECORDING = locateRecording(RECORDING) ?? '';
const present = WC_RECORDING !== '';
if (!present) console.warn(`skipping the World Cup closing-line replay: ${missingRecordingNote(RECORDING)}`);

describe('closing lines on the real World Cup recording', () => {
  it.runIf(present)(
    "captures every book's last pre-match price at each kickoff, match by match, with the counts derived from the recording",
    async () => {
      const snapshots: RecordedSnapshot[] = [];
      const lineAt = new Map<number, string>();
      for await (const line of readLines(WC_RECORDING)) {
        const s = parseRecordingLine(line);
        if (!s) continue;
        snapshots.push(s);
        lineAt.set(s.timestamp, line);
      }
      // Per recorded match: the last pre-match snapshot's prices and the kickoff snapshot's time.
      const games = new Map<string, { prices: Price[]; lastPre: number | null; kickoff: number | null; name: string }>();
      for (const s of snapshots) {
        for (const e of s.data as RecordedEvent[]) {
          const g = games.get(e.id) ?? { prices: [], lastPre: null, kickoff: null, name: `${e.away_team} at ${e.home_team}` };
          games.set(e.id, g);
          if (g.kickoff !== null) continue;
          if (s.timestamp >= Date.parse(e.commence_time)) g.kickoff = s.timestamp;
          else {
            g.prices = pricesOf(e);
            g.lastPre = s.timestamp;
          }
        }
      }
      const closed = [...games].filter(([, g]) => g.kickoff !== null && g.lastPre !== null);
      const expectedLines = closed.reduce((n, [, g]) => n + g.prices.length, 0);
      // The recording as read here: 35 matches listed, 15 of them kick off inside it, 705 prices at their closes.
      expect([games.size, closed.length, expectedLines]).toEqual([35, 15, 705]);
      // Bounded: the replay gets the first snapshot and, per match, its last pre-match and its
      // kickoff snapshot (what decides a close; 168 snapshots took 200 s at load 27, these few a
      // fraction). A snapshot between those two does not exist by definition, so every close and
      // capture time is the same as on the whole recording.
      const keep = new Set<number>([
        snapshots[0]?.timestamp ?? 0,
        ...closed.flatMap(([, g]) => [g.lastPre as number, g.kickoff as number]),
      ]);
      const dir = mkdtempSync(join(tmpdir(), 'wc-closes-'));
      const trimmed = join(dir, 'worldcup-kickoffs.jsonl');
      writeFileSync(
        trimmed,
        `${[...keep]
          .sort((a, b) => a - b)
          .map((t) => lineAt.get(t))
          .join('\n')}\n`,
      );

      const { sys, canonical } = await replayThroughSystem(trimmed);
      try {
        let lines = 0;
        const perMatch: string[] = [];
        for (const [recordedId, g] of closed) {
          const eventId = canonical.get(recordedId);
          expect(eventId, `${g.name} (${recordedId})`).toBeDefined();
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
          expect(rows.length, `closing lines of ${g.name}`).toBe(g.prices.length);
          expect(rows.map(key).sort(), `closes of ${g.name}`).toEqual(g.prices.map(key).sort());
          for (const r of rows) {
            expect(Number(r.captured), `${g.name} captured at its kickoff snapshot`).toBe(g.kickoff);
            const fair = closingFair(g.prices, { market: r.market, selection: r.selection, line: r.line === null ? null : Number(r.line) });
            if (fair === null) expect(r.no_vig_power).toBeNull();
            else expect(Number(r.no_vig_power)).toBeCloseTo(fair, 5);
          }
          // Three-way moneylines close with their draw.
          if (g.prices.some((p) => p.market === 'moneyline'))
            expect(
              rows.some((r) => r.market === 'moneyline' && r.selection === 'draw'),
              g.name,
            ).toBe(true);
          lines += rows.length;
          perMatch.push(`${g.name} ${rows.length}`);
        }
        expect(lines).toBe(expectedLines);
        // Nothing closes that did not kick off inside the recording.
        const all = await sys.store.query<{ n: string; events: string }>(
          'SELECT count() AS n, uniqExact(event_id) AS events FROM closing_odds FINAL',
        );
        expect([Number(all[0]?.n), Number(all[0]?.events)]).toEqual([expectedLines, closed.length]);
        console.info(`World Cup recording: ${closed.length} matches closed, ${lines} closing lines (${perMatch.join(', ')})`);

        // The API serves them; a replay has no futures and no game state.
        const [firstId, first] = closed[0] as [string, { prices: Price[] }];
        const api = await sys.get(`/api/v1/odds/closing?event_id=${canonical.get(firstId) ?? ''}`, sys.demoKeys.enterprise);
        expect(api.status).toBe(200);
        const served = Object.values((api.body['data'] as { books: Record<string, unknown[]> }).books).reduce((n, b) => n + b.length, 0);
        expect(served).toBe(first.prices.length);
        expect((await sys.get('/api/v1/futures')).body['data']).toEqual([]);
        expect((await sys.get('/api/v1/gamestate', sys.demoKeys.enterprise)).body['data']).toEqual({});
      } finally {
        await sys.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
