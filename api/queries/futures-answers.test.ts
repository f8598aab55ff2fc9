import { describe, expect, it } from 'vitest';
import type { FuturesQuote } from '../../schemas/index.js';
import { ApiError } from '../errors.js';
import { Catalog } from '../views/catalog.js';
import type { FuturesView } from '../views/futures-board.js';
import { futuresComparison, futuresEvList, futuresMarkets, futuresPrices } from './futures-answers.js';
import type { FuturesSource } from './futures-answers.js';

/** The futures answers on a hand-built view: one NBA market priced by a free book, a pro book and a sharp one. */
const TITLE = 'nba-2026-27-championship';
const quote = (book: string, priceAmerican: number): FuturesQuote => ({
  key: `${TITLE}|${book}`,
  futureId: TITLE,
  name: 'NBA Champion 2026-27',
  sport: 'basketball',
  league: 'nba',
  futureType: 'TEAM',
  market: 'championship',
  season: '2026-27',
  subjectTeamId: null,
  settlesAt: 0,
  book,
  bookMarketId: `${book}-title`,
  ts: 0,
  selections: [
    {
      selection: 'Boston Celtics',
      selectionId: 'boston-celtics',
      line: null,
      priceAmerican,
      priceDecimal: 1 + priceAmerican / 100,
      probability: 0.4,
    },
  ],
});
const quotes = [quote('draftkings', 150), quote('fanduel', 140), quote('pinnacle', 160)];
const view: FuturesView = {
  futureIds: () => [TITLE],
  boards: (id) => (id === TITLE ? quotes : []),
  market: () => undefined,
};
const src: FuturesSource = { futures: view, catalog: new Catalog() };

const refusal = (answer: () => unknown): [string, string] | null => {
  try {
    answer();
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return [err.code, err.message];
  }
};

describe('futures answers', () => {
  it('lists a market at every book without a tier, and at the tier books with one', () => {
    expect(futuresMarkets(src, null, {})[0]?.books).toEqual(['draftkings', 'fanduel', 'pinnacle']);
    expect(futuresMarkets(src, 'free', {})[0]?.books).toEqual(['draftkings', 'fanduel']);
    expect(futuresMarkets(src, null, { sportsbook: 'pinnacle' })[0]?.books).toEqual(['pinnacle']);
  });

  it('prices the named markets with the tier delay and lists the ids no book prices', () => {
    const free = futuresPrices(src, 'free', { future_id: `${TITLE},nba-1999-championship` });
    expect(free.rows.map((r) => r.quote.book)).toEqual(['draftkings', 'fanduel']);
    expect([free.requested, free.missing, free.delaySeconds, free.withFair]).toEqual([2, ['nba-1999-championship'], 60, false]);
    expect(futuresPrices(src, 'pro', { market: TITLE }).withFair).toBe(true);
  });

  it('refuses what every interface refuses, naming the parameter or the tier', () => {
    expect(refusal(() => futuresPrices(src, 'pro', {}))).toEqual(['invalid_request', "Missing required query parameter 'future_id'"]);
    expect(refusal(() => futuresMarkets(src, null, { future_type: 'TEAMS' }))).toEqual([
      'invalid_request',
      "Invalid query parameter 'future_type': expected one of TEAM, PLAYER, OVER_UNDER, YES_NO",
    ]);
    expect(refusal(() => futuresMarkets(src, null, { league: 'nbaa' }))?.[1]).toBe(
      "Invalid query parameter 'league': unknown league 'nbaa'; did you mean 'nba'? GET /api/v1/leagues lists them",
    );
    expect(refusal(() => futuresComparison(src, 'free', { future_id: TITLE, sportsbook: 'pinnacle' }))).toEqual([
      'feature_required',
      "Sportsbook 'pinnacle' needs the pro tier or higher; this key is free",
    ]);
    expect(refusal(() => futuresEvList(src, 'hobby', {}))?.[1]).toBe('The ev feature needs the pro tier or higher; this key is hobby');
  });
});
