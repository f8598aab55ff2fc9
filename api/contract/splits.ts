import { SPLIT_MARKETS, SPLITS_BOOKS } from '../../schemas/index.js';
import type { MarketSignals, SplitMarket, SplitSide, SplitSideRecord, SplitsBook, SplitsSnapshot } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import { isoTime, nullableNumber } from './common.js';
import { teamName } from './refs.js';
import type { RowOf } from './route-types.js';

/**
 * `/splits` records and `/splits/history` entries, shaped as the reference service's (COMPAT §4)
 * with its quirks kept: on `/splits` the spread block's `away_odds`/`home_odds` hold the spread
 * lines; history entries name the book `book` and the spread lines `*_line`. Shares are 0 to 1.
 * What we add is additive: prices next to lines, `event_start_time`, `is_live`, `signals`.
 */

const share = { type: 'number', minimum: 0, maximum: 1 } as const;
const pair = (a: string, b: string): object => ({ type: 'object', required: [a, b], properties: { [a]: share, [b]: share } });
const sidesPct = { handle_pct: pair('away', 'home'), bets_pct: pair('away', 'home') };
const totalPct = { handle_pct: pair('over', 'under'), bets_pct: pair('over', 'under') };
const price = {
  ...nullableNumber,
  description:
    "American odds the book had on this side at the snapshot; null when it had none, or when the key's tier does not serve this book's odds.",
};
const line = (what: string): object => ({
  ...nullableNumber,
  description: `${what}; null when the book had no line, or when the key's tier does not serve this book's odds.`,
});

const sideValues = ['home', 'away', 'over', 'under'] as const;
const divergenceSchema = {
  type: ['object', 'null'],
  required: ['sharp_side', 'gap'],
  description: 'Handle share exceeds bet share on `sharp_side` by `gap` (at least 0.10): bigger tickets on that side.',
  properties: { sharp_side: { type: 'string', enum: sideValues }, gap: share },
} as const;
const rlmSchema = {
  type: ['object', 'null'],
  required: ['public_side', 'public_bets_pct', 'sharp_side', 'open_line', 'current_line', 'move'],
  description:
    'Reverse line movement: since the first snapshot the line moved in favour of the side with most bets (books move against the side they need to stop).',
  properties: {
    public_side: { type: 'string', enum: sideValues },
    public_bets_pct: share,
    sharp_side: { type: 'string', enum: sideValues },
    open_line: line("Public side's line at the first snapshot (moneyline: implied probability)"),
    current_line: line("Public side's line now (moneyline: implied probability)"),
    move: { type: 'number', description: 'Points (moneyline: probability) the public side gained.' },
  },
} as const;
const marketSignalsSchema = {
  type: 'object',
  required: ['divergence', 'rlm'],
  properties: { divergence: divergenceSchema, rlm: rlmSchema },
} as const;

const totalBlock = {
  type: 'object',
  required: ['line', 'handle_pct', 'bets_pct'],
  properties: { line: line('Total points line'), over_price: price, under_price: price, ...totalPct },
} as const;
const moneylineBlock = {
  type: 'object',
  required: ['away_odds', 'home_odds', 'handle_pct', 'bets_pct'],
  properties: { away_odds: price, home_odds: price, ...sidesPct },
} as const;

export const signalsSchema = {
  type: 'object',
  description: 'Sharp-money signals per market present (rules in docs/splits.md).',
  properties: Object.fromEntries(SPLIT_MARKETS.map((m) => [m, marketSignalsSchema])),
} as const;

export const splitsRecordSchema = {
  type: 'object',
  required: ['event_id', 'sport', 'league', 'sportsbook', 'fetched_at'],
  properties: {
    event_id: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    sportsbook: { type: 'string', enum: [...SPLITS_BOOKS] },
    home_team: { type: 'string' },
    away_team: { type: 'string' },
    event_start_time: { type: 'string', format: 'date-time' },
    is_live: { type: 'boolean' },
    spread: {
      type: 'object',
      required: ['away_odds', 'home_odds', 'handle_pct', 'bets_pct'],
      properties: {
        away_odds: line('Away spread line (named `_odds` for compatibility)'),
        home_odds: line('Home spread line (named `_odds` for compatibility)'),
        away_price: price,
        home_price: price,
        ...sidesPct,
      },
    },
    total: totalBlock,
    moneyline: moneylineBlock,
    fetched_at: { type: 'string', format: 'date-time', description: 'When the book published these numbers.' },
    signals: signalsSchema,
  },
} as const;

export const splitsHistoryEntrySchema = {
  type: 'object',
  required: ['book', 'ts', 'timestamp'],
  properties: {
    book: { type: 'string', enum: [...SPLITS_BOOKS] },
    sportsbook: { type: 'string', enum: [...SPLITS_BOOKS], description: 'Same as `book`.' },
    ts: { type: 'string', format: 'date-time' },
    timestamp: { type: 'number', description: '`ts` in Unix seconds (fractional).' },
    spread: {
      type: 'object',
      required: ['away_line', 'home_line', 'handle_pct', 'bets_pct'],
      properties: {
        away_line: line('Away spread line'),
        home_line: line('Home spread line'),
        away_price: price,
        home_price: price,
        ...sidesPct,
      },
    },
    total: totalBlock,
    moneyline: moneylineBlock,
  },
} as const;

/** One snapshot's sides by market and side, for presenting blocks. */
type SideMap = Map<string, SplitSideRecord>;

function sideMap(sides: readonly SplitSideRecord[]): SideMap {
  return new Map(sides.map((s) => [`${s.market}|${s.side}`, s]));
}

function both(map: SideMap, market: SplitMarket, a: SplitSide, b: SplitSide): [SplitSideRecord, SplitSideRecord] | null {
  const x = map.get(`${market}|${a}`);
  const y = map.get(`${market}|${b}`);
  return x && y ? [x, y] : null;
}

type SplitsRecord = RowOf<'/api/v1/splits'>;
type TotalBlock = NonNullable<SplitsRecord['total']>;
type MoneylineBlock = NonNullable<SplitsRecord['moneyline']>;
type SidesShares = Pick<MoneylineBlock, 'handle_pct' | 'bets_pct'>;

const sidesShares = (away: SplitSideRecord, home: SplitSideRecord): SidesShares => ({
  handle_pct: { away: away.handlePct, home: home.handlePct },
  bets_pct: { away: away.betPct, home: home.betPct },
});
const totalShares = (over: SplitSideRecord, under: SplitSideRecord): Pick<TotalBlock, 'handle_pct' | 'bets_pct'> => ({
  handle_pct: { over: over.handlePct, under: under.handlePct },
  bets_pct: { over: over.betPct, under: under.betPct },
});

/** The spread block but for its two lines, whose names are the quirk (`_odds` on /splits, `_line` in history). */
interface SpreadParts {
  awayLine: number | null;
  homeLine: number | null;
  prices: { away_price: number | null; home_price: number | null };
  shares: SidesShares;
}

interface MarketBlocks {
  spread?: SpreadParts;
  total?: TotalBlock;
  moneyline?: MoneylineBlock;
}

/**
 * The market blocks of a snapshot, the markets it has. `showPrices` false hides the book's lines
 * and prices (a tier that cannot read this book's odds still reads its splits).
 */
function marketBlocks(sides: readonly SplitSideRecord[], showPrices: boolean): MarketBlocks {
  const map = sideMap(sides);
  const hide = <T>(v: T | null): T | null => (showPrices ? v : null);
  const out: MarketBlocks = {};
  const spread = both(map, 'spread', 'away', 'home');
  if (spread) {
    const [away, home] = spread;
    out.spread = {
      awayLine: hide(away.line),
      homeLine: hide(home.line),
      prices: { away_price: hide(away.priceAmerican), home_price: hide(home.priceAmerican) },
      shares: sidesShares(away, home),
    };
  }
  const total = both(map, 'total', 'over', 'under');
  if (total) {
    const [over, under] = total;
    out.total = {
      line: hide(over.line ?? under.line),
      over_price: hide(over.priceAmerican),
      under_price: hide(under.priceAmerican),
      ...totalShares(over, under),
    };
  }
  const ml = both(map, 'moneyline', 'away', 'home');
  if (ml) {
    const [away, home] = ml;
    out.moneyline = { away_odds: hide(away.priceAmerican), home_odds: hide(home.priceAmerican), ...sidesShares(away, home) };
  }
  return out;
}

/** The blocks of a snapshot as `/splits` names them: the spread lines are `away_odds`/`home_odds`. */
function recordBlocks(sides: readonly SplitSideRecord[], showPrices: boolean): Pick<SplitsRecord, 'spread' | 'total' | 'moneyline'> {
  const { spread, total, moneyline } = marketBlocks(sides, showPrices);
  return {
    ...(spread ? { spread: { away_odds: spread.awayLine, home_odds: spread.homeLine, ...spread.prices, ...spread.shares } } : {}),
    ...(total ? { total } : {}),
    ...(moneyline ? { moneyline } : {}),
  };
}

/** The blocks of a snapshot as history entries name them: the spread lines are `away_line`/`home_line`. */
function historyBlocks(
  sides: readonly SplitSideRecord[],
  showPrices: boolean,
): Pick<RowOf<'/api/v1/splits/history'>, 'spread' | 'total' | 'moneyline'> {
  const { spread, total, moneyline } = marketBlocks(sides, showPrices);
  return {
    ...(spread ? { spread: { away_line: spread.awayLine, home_line: spread.homeLine, ...spread.prices, ...spread.shares } } : {}),
    ...(total ? { total } : {}),
    ...(moneyline ? { moneyline } : {}),
  };
}

function presentSignals(signals: SplitsSnapshot['signals'], showPrices: boolean): NonNullable<SplitsRecord['signals']> {
  const out: NonNullable<SplitsRecord['signals']> = {};
  for (const market of SPLIT_MARKETS) {
    const s: MarketSignals | undefined = signals[market];
    if (!s) continue;
    const d = s.divergence;
    const r = s.rlm;
    out[market] = {
      divergence: d && { sharp_side: d.sharpSide, gap: d.gap },
      rlm: r && {
        public_side: r.publicSide,
        public_bets_pct: r.publicBetPct,
        sharp_side: r.sharpSide,
        open_line: showPrices ? r.openLine : null,
        current_line: showPrices ? r.currentLine : null,
        move: r.move,
      },
    };
  }
  return out;
}

export function presentSplits(
  catalog: Catalog,
  s: SplitsSnapshot,
  event: { homeTeamId: string; awayTeamId: string; startTime: number; isLive: boolean },
  showPrices: boolean,
): SplitsRecord {
  return {
    event_id: s.eventId,
    sport: s.sport,
    league: s.league,
    sportsbook: s.book,
    home_team: teamName(catalog, event.homeTeamId),
    away_team: teamName(catalog, event.awayTeamId),
    event_start_time: isoTime(event.startTime),
    is_live: event.isLive,
    ...recordBlocks(s.sides, showPrices),
    fetched_at: isoTime(s.ts),
    signals: presentSignals(s.signals, showPrices),
  };
}

export function presentHistoryEntry(
  book: SplitsBook,
  ts: number,
  sides: readonly SplitSideRecord[],
  showPrices: boolean,
): RowOf<'/api/v1/splits/history'> {
  return { book, sportsbook: book, ts: isoTime(ts), timestamp: ts / 1000, ...historyBlocks(sides, showPrices) };
}
