import { TEAMS } from '../schemas/index.js';
import type { CanonicalEvent, OddsRow } from '../schemas/index.js';
import { presentOdds } from '../api/contract/odds.js';
import { pagination } from '../api/contract/common.js';
import { entityTag } from '../api/plugins/envelope.js';
import { mainLinesOf } from '../api/views/main-lines.js';
import { Catalog } from '../api/views/catalog.js';
import type { BenchFigure } from './report.js';

/**
 * What the drop-in compatibility work costs per /odds page of 100 rows: the ETag (a SHA-1 of
 * the serialized body) and the main-line computation, each beside the JSON serialization or the
 * presentation of the same page, measured in the same run.
 */
export async function benchCompat(iterations = 3000): Promise<BenchFigure[]> {
  const catalog = new Catalog();
  const [home, away] = TEAMS.filter((t) => t.leagues.includes('nba'));
  const event: CanonicalEvent = {
    id: 'nba-bench',
    sport: 'basketball',
    league: 'nba',
    homeTeamId: home?.id ?? '',
    awayTeamId: away?.id ?? '',
    startTime: Date.now(),
    isLive: false,
    status: 'upcoming',
    externalIds: {},
  } as CanonicalEvent;
  const books = ['draftkings', 'fanduel', 'betmgm', 'caesars', 'pinnacle'];
  const rows: OddsRow[] = [];
  for (let i = 0; i < 20; i++) {
    for (const book of books) {
      rows.push({
        id: `r${i}-${book}`,
        eventId: event.id,
        book,
        market: 'point_spread',
        participant: null,
        statCategory: null,
        selection: i % 2 === 0 ? 'home' : 'away',
        line: (i % 2 === 0 ? -1 : 1) * (2.5 + Math.floor(i / 4)),
        priceAmerican: -110,
        priceDecimal: 1.9091,
        probability: 0.5238,
        ts: Date.now(),
        oddsChangedAt: Date.now(),
        observedAt: Date.now(),
        isLive: false,
        bookEventId: `${book}-1`,
        selectionId: null,
        isActive: true,
        suspendedSince: null,
      } as OddsRow);
    }
  }
  const serialize = (payload: object): string => JSON.stringify(payload);
  const main = mainLinesOf(rows);
  const body = serialize({
    success: true,
    data: rows.map((r) => presentOdds(catalog, r, event, main)),
    pagination: pagination(100, 0, 100),
    updated_at: new Date().toISOString(),
  });
  const time = (f: () => void): number => {
    const t0 = performance.now();
    for (let i = 0; i < iterations; i++) f();
    return ((performance.now() - t0) * 1000) / iterations;
  };
  const page = rows.map((r) => presentOdds(catalog, r, event, main));
  const serializeUs = time(() =>
    serialize({ success: true, data: page, pagination: pagination(100, 0, 100), updated_at: '2026-01-01T00:00:00.000Z' }),
  );
  const bytes = Buffer.from(body);
  const etagUs = time(() => entityTag('enterprise', bytes));
  const presentUs = time(() => rows.map((r) => presentOdds(catalog, r, event)));
  const mainUs = time(() => mainLinesOf(rows));
  return [
    {
      name: 'ETag of a 100-row /odds body (SHA-1)',
      value: etagUs,
      unit: 'µs/page',
      baseline: { name: 'serializing it', value: serializeUs },
    },
    {
      name: 'main lines of a 100-row event (uncached)',
      value: mainUs,
      unit: 'µs/event',
      baseline: { name: 'presenting its rows', value: presentUs },
    },
  ];
}
