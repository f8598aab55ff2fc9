import type { RawTick } from '../../schemas/index.js';

/**
 * A book's raw price as a feed delivers it: by default Pinnacle's Lakers moneyline on Lakers v
 * Celtics starting at `startTime`, priced an hour before the start. Tests override what they vary.
 */
export function rawTick(startTime: number, over: Partial<RawTick> = {}): RawTick {
  return {
    book: 'pinnacle',
    bookEventId: 'p-1',
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime,
    isLive: false,
    market: 'moneyline',
    outcome: 'Los Angeles Lakers',
    line: null,
    participant: null,
    statCategory: null,
    priceAmerican: -120,
    status: 'open',
    ts: startTime - 3600_000,
    selectionId: null,
    ...over,
  };
}
