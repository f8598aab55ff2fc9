import type { RawTick } from '../../schemas/index.js';

/**
 * Extra prices on the fixture's NBA game so every opportunity kind exists: Caesars' Celtics
 * +130 is +EV against Pinnacle and, with ESPN Bet's Lakers -115, an arbitrage (hence low-hold);
 * Caesars Over and BetMGM Under at 228.5 are an arbitrage; FanDuel +4.5 against DraftKings
 * -2.5 is a middle (Lakers by 3 or 4).
 */
export function opportunityTicks(fixture: readonly RawTick[]): RawTick[] {
  const base = fixture.find((t) => t.league === 'nba') as RawTick;
  // A book lists a game once: reuse its listing id where the fixture has one.
  const listing = (book: string): string => fixture.find((t) => t.league === 'nba' && t.book === book)?.bookEventId ?? `${book}-100`;
  const at = (book: string, market: RawTick['market'], outcome: string, price: number, line: number | null = null): RawTick => ({
    ...base,
    book,
    bookEventId: listing(book),
    market,
    outcome,
    priceAmerican: price,
    line,
    participant: null,
    statCategory: null,
  });
  return [
    at('caesars', 'moneyline', 'Los Angeles Lakers', -160),
    at('caesars', 'moneyline', 'Boston Celtics', 130),
    at('caesars', 'total_points', 'Over', 110, 228.5),
    at('caesars', 'total_points', 'Under', -140, 228.5),
    at('betmgm', 'total_points', 'Over', -140, 228.5),
    at('betmgm', 'total_points', 'Under', 105, 228.5),
    at('fanduel', 'point_spread', 'Los Angeles Lakers', -105, -4.5),
    at('fanduel', 'point_spread', 'Boston Celtics', -115, 4.5),
  ];
}
