import { describe, expect, it } from 'vitest';
import { parseRecordingLine } from '../pipeline/feeds/theoddsapi/index.js';
import { readLines } from '../pipeline/feeds/read-lines.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { closingFair, decimal, pricesOf, replayThroughSystem } from './support/recorded-closes.js';
import type { Price, RecordedEvent } from './support/recorded-closes.js';

/**
 * Scripted bets on the real NFL week-10 recording, graded against its recorded closes: for each
 * of the first games that closed, a moneyline and a spread bet at the price a book showed on the
 * game's first pre-match snapshot. The expected close is the book's price on the last snapshot
 * before kickoff, the fair close LowVig's (else BetOnline's) market de-vigged by the power method,
 * computed here from the recorded prices alone. The recording has no scores: nothing settles.
 */
const RECORDING = 'theoddsapi_v4_nfl_2025wk10_snapshots.jsonl.gz';
const NFL_RECORDING = locateRecording(RECORDING) ?? '';
const present = NFL_RECORDING !== '';
if (!present) console.warn(`skipping the bet-ledger replay: ${missingRecordingNote(RECORDING)}`);

type Row = Record<string, unknown>;
const sameOutcome = (a: Price, b: Price): boolean =>
  a.book === b.book && a.market === b.market && a.selection === b.selection && a.line === b.line;

describe('bets graded against the real NFL recording', () => {
  it.runIf(present)(
    'grades scripted pre-match bets against the recorded closing prices and fair closes',
    async () => {
      const games = new Map<string, { first: { at: number; prices: Price[] } | null; close: Price[]; start: number; closed: boolean }>();
      for await (const line of readLines(NFL_RECORDING)) {
        const s: RecordedSnapshot | null = parseRecordingLine(line);
        if (!s) continue;
        for (const e of s.data as RecordedEvent[]) {
          const start = Date.parse(e.commence_time);
          const g = games.get(e.id) ?? { first: null, close: [], start, closed: false };
          games.set(e.id, g);
          if (g.closed) continue;
          if (s.timestamp >= start) g.closed = true;
          else {
            g.first ??= { at: s.timestamp, prices: pricesOf(e) };
            g.close = pricesOf(e);
          }
        }
      }
      const scripted = [...games].filter(([, g]) => g.closed && g.first !== null).slice(0, 6);
      expect(scripted.length).toBe(6);

      const { sys, canonical } = await replayThroughSystem(NFL_RECORDING);
      try {
        const account = sys.keys.lookup(sys.demoKeys.pro)?.accountId ?? '';
        const expected = new Map<string, { price: Price; close: Price | undefined; fair: number | null }>();
        for (const [recordedId, g] of scripted) {
          const first = g.first as { at: number; prices: Price[] };
          for (const market of ['moneyline', 'point_spread']) {
            // A book that priced the home side on the first snapshot and closed the same line.
            const price = first.prices.find((p) => p.market === market && p.selection === 'home' && g.close.some((c) => sameOutcome(c, p)));
            if (!price) continue;
            const bet = await sys.bets.log({
              accountId: account,
              eventId: canonical.get(recordedId) ?? recordedId,
              sport: 'football',
              league: 'nfl',
              eventStartTime: g.start,
              market: price.market as 'moneyline' | 'point_spread',
              participant: null,
              statCategory: null,
              selection: 'home',
              line: price.line,
              book: price.book,
              priceAmerican: price.american,
              priceDecimal: decimal(price.american),
              stake: 10,
              placedAt: first.at,
              sourceId: null,
              devigMethod: 'power',
              sharpBook: null,
            });
            expected.set(bet.id, { price, close: g.close.find((c) => sameOutcome(c, price)), fair: closingFair(g.close, price) });
          }
        }
        expect(expected.size).toBeGreaterThanOrEqual(6);

        const r = await sys.get('/api/v1/bets?limit=500', sys.demoKeys.pro);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const listed = r.body['data'] as Row[];
        expect(listed.length).toBe(expected.size);
        let withFair = 0;
        for (const b of listed) {
          const want = expected.get(b['id'] as string);
          expect(want, String(b['id'])).toBeDefined();
          if (!want) continue;
          const clv = b['clv'] as Row;
          const d = decimal(want.price.american);
          expect([b['id'], b['status'], b['result']]).toEqual([b['id'], 'graded', null]);
          expect(clv['closing_odds_american']).toBe(want.close?.american);
          expect(clv['price_clv_percent'] as number).toBeCloseTo((d / decimal(want.close?.american ?? 0) - 1) * 100, 3);
          if (want.fair === null) {
            expect(clv['no_vig_clv_percent']).toBeNull();
            continue;
          }
          withFair++;
          expect(clv['closing_fair_probability'] as number).toBeCloseTo(want.fair, 5);
          expect(clv['no_vig_clv_percent'] as number).toBeCloseTo((want.fair * d - 1) * 100, 3);
        }
        expect(withFair).toBeGreaterThan(0);
        console.info(`NFL recording: ${expected.size} scripted bets graded, ${withFair} against a fair close`);
      } finally {
        await sys.close();
      }
    },
    300_000,
  );
});
