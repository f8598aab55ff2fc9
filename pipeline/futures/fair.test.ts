import { describe, expect, it } from 'vitest';
import type { FuturesQuote } from '../../schemas/index.js';
import { futuresFairLine } from './fair.js';
import { FuturesProcessor } from './processor.js';

/** A four-team title market: pinnacle and circa are references, draftkings a soft book. */
const T = Date.UTC(2026, 10, 22, 12);
function board(book: string, prices: readonly number[], ts = T): FuturesQuote {
  const teams = ['boston-celtics', 'denver-nuggets', 'los-angeles-lakers', 'milwaukee-bucks'];
  return {
    key: `nba-2026-27-championship|${book}`,
    futureId: 'nba-2026-27-championship',
    name: 'NBA 2026-27 Championship Winner',
    sport: 'basketball',
    league: 'nba',
    futureType: 'TEAM',
    market: 'championship',
    season: '2026-27',
    subjectTeamId: null,
    settlesAt: Date.UTC(2027, 6, 1) - 1,
    book,
    bookMarketId: `${book}-1`,
    ts,
    selections: prices.map((a, i) => {
      const d = a > 0 ? 1 + a / 100 : 1 + 100 / -a;
      return {
        selection: teams[i] as string,
        selectionId: teams[i] as string,
        line: null,
        priceAmerican: a,
        priceDecimal: d,
        probability: 1 / d,
      };
    }),
  };
}
const OPTIONS = { referenceBooks: ['pinnacle', 'circa'], fallbackReferenceBooks: ['betonlineag'] };
// Pinnacle: decimals 2.5, 3.5, 5, 7 (implied 0.4, 0.285714, 0.2, 0.142857; sum 1.028571).
// Circa: decimals 2.4, 3.6, 5, 7.5 (implied 0.416667, 0.277778, 0.2, 0.133333; sum 1.027778).
const PINNACLE = [150, 250, 400, 600];
const CIRCA = [140, 260, 400, 650];

describe('futures fair line and +EV', () => {
  it('de-vigs each reference across every outcome and averages them (multiplicative, exactly)', () => {
    const line = futuresFairLine([board('pinnacle', PINNACLE), board('circa', CIRCA)], OPTIONS);
    expect(line.references).toEqual(['pinnacle', 'circa']);
    const pin = [0.4, 2 / 7, 0.2, 1 / 7];
    const cir = [1 / 2.4, 1 / 3.6, 0.2, 1 / 7.5];
    const sp = pin.reduce((a, b) => a + b);
    const sc = cir.reduce((a, b) => a + b);
    const expected = pin.map((p, i) => Math.round(((p / sp + (cir[i] as number) / sc) / 2) * 1e6) / 1e6);
    expect(line.selections.map((s) => s.fair?.multiplicative)).toEqual(expected);
    // Each method's fair line sums to 1 (to the rounding of six digits).
    for (const m of ['power', 'multiplicative', 'additive', 'shin', 'odds_ratio', 'logit'] as const) {
      expect(line.selections.reduce((s, x) => s + (x.fair?.[m] ?? 0), 0)).toBeCloseTo(1, 5);
    }
    expect(line.selections.map((s) => [s.bestBook, s.bestPriceAmerican])).toEqual([
      ['pinnacle', 150],
      ['circa', 260],
      ['circa', 400],
      ['circa', 650],
    ]);
  });

  it("finds the soft book's long price above the references' fair probability, with exact EV", () => {
    const line = futuresFairLine([board('pinnacle', PINNACLE), board('circa', CIRCA), board('draftkings', [130, 200, 300, 800])], OPTIONS);
    const dk = line.opportunities.filter((o) => o.book === 'draftkings');
    expect(dk.map((o) => o.selectionId)).toEqual(['milwaukee-bucks']);
    const o = dk[0];
    const pin = 1 / 7 / (0.4 + 2 / 7 + 0.2 + 1 / 7);
    const cir = 1 / 7.5 / (1 / 2.4 + 1 / 3.6 + 0.2 + 1 / 7.5);
    const fair = (pin + cir) / 2;
    expect(o?.methods.multiplicative.fairProbability).toBe(Math.round(fair * 1e6) / 1e6);
    expect(o?.methods.multiplicative.evPercent).toBe(Math.round((fair * 9 - 1) * 100 * 1e4) / 1e4);
    expect(o?.methods.multiplicative.kellyPercent).toBe(Math.round(((fair * 9 - 1) / 8) * 100 * 1e4) / 1e4);
    expect(o?.sharpBooks).toEqual(['pinnacle', 'circa']);
    expect(o?.referenceHoldPercent).toBe(Math.round((1 - 1 / (0.4 + 2 / 7 + 0.2 + 1 / 7)) * 100 * 1e4) / 1e4);
    expect(o?.bookCount).toBe(3);
    // A reference is judged against the other references only.
    expect(line.opportunities.filter((x) => x.book === 'pinnacle').every((x) => x.sharpBooks.join() === 'circa')).toBe(true);
  });

  it('drops a reference that leaves out part of the field, and falls back when none is left', () => {
    const partial = board('pinnacle', PINNACLE);
    partial.selections = partial.selections.slice(0, 3);
    const line = futuresFairLine([partial, board('draftkings', [130, 200, 300, 800]), board('betonlineag', [140, 250, 380, 700])], OPTIONS);
    expect(line.references).toEqual(['betonlineag']);
  });

  it("keeps an opportunity's detection time while it lasts and records its expiry", () => {
    const p = new FuturesProcessor(OPTIONS);
    const first = p.handle([board('pinnacle', PINNACLE), board('circa', CIRCA), board('draftkings', [130, 200, 300, 800])], T);
    const id = first.markets[0]?.opportunities.find((o) => o.book === 'draftkings')?.id;
    expect(id).toMatch(/^[a-f0-9]{16}$/);
    const second = p.handle([board('draftkings', [130, 200, 300, 800], T + 60_000)], T + 60_000);
    const again = second.markets[0]?.opportunities.find((o) => o.id === id);
    expect([again?.detectedAt, again?.lastSeenAt]).toEqual([T, T + 60_000]);
    // Draftkings cuts the price: the edge is gone, its last version is recorded as expired.
    const third = p.handle([board('draftkings', [130, 200, 300, 500], T + 120_000)], T + 120_000);
    expect(third.markets[0]?.opportunities.some((o) => o.id === id)).toBe(false);
    expect(third.ev.filter((v) => v.expiredAt !== null).map((v) => [v.opportunity.id, v.expiredAt])).toEqual([[id, T + 120_000]]);
    // The latest table hears of each outcome of the new board; a delisted outcome is marked removed.
    const cut = board('draftkings', [130, 200, 300], T + 180_000);
    expect(
      p
        .handle([cut], T + 180_000)
        .latest.filter((l) => l.removed)
        .map((l) => l.price.selectionId),
    ).toEqual(['milwaukee-bucks']);
    expect(p.counters.expired).toBeGreaterThanOrEqual(1);
  });
});
