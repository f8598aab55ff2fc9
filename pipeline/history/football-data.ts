import { foldName } from '../../schemas/index.js';
import type { MarketId, SelectionType } from '../../schemas/index.js';
import { parseCsv } from './csv.js';
import type { HistoricalMatch, HistoricalPrice, HistoryFormat, ParsedHistory, PricePhase } from './history.js';

/**
 * football-data.co.uk's match files (one row per match: result, then each book's opening and
 * closing prices in columns named by their notes). Only the columns below are read; a file may
 * lack any of them.
 */
export const FOOTBALL_DATA = 'football-data';

/** Their division codes for the leagues our catalog has. */
const LEAGUES = new Map([
  ['E0', 'epl'],
  ['SP1', 'la_liga'],
  ['I1', 'serie_a'],
  ['D1', 'bundesliga'],
]);

/**
 * Column prefixes per book: 1X2 (`<p>H`), over/under 2.5 (`<p>>2.5`) and Asian handicap
 * (`<p>AHH`), opening and closing. The market maximum and average columns are not books.
 */
interface BookColumns {
  book: string;
  x12: [string, string];
  totals?: [string, string];
  handicap?: [string, string];
}

const BOOKS: readonly BookColumns[] = [
  { book: 'bet365', x12: ['B365', 'B365C'], totals: ['B365', 'B365C'], handicap: ['B365', 'B365C'] },
  { book: 'bwin', x12: ['BW', 'BWC'] },
  { book: 'betfair_sportsbook', x12: ['BF', 'BFC'] },
  { book: 'pinnacle', x12: ['PS', 'PSC'], totals: ['P', 'PC'], handicap: ['P', 'PC'] },
  { book: 'williamhill', x12: ['WH', 'WHC'] },
  { book: '1xbet', x12: ['1XB', '1XBC'] },
  { book: 'betfair_ex_eu', x12: ['BFE', 'BFEC'], totals: ['BFE', 'BFEC'], handicap: ['BFE', 'BFEC'] },
];

const PHASES: readonly PricePhase[] = ['opening', 'closing'];
/** The handicap line's column per phase (the home side's handicap). */
const HANDICAP_LINE: Record<PricePhase, string> = { opening: 'AHh', closing: 'AHCh' };
const TOTAL_LINE = 2.5;

type Cell = (column: string) => string | undefined;

export const footballData: HistoryFormat = { name: FOOTBALL_DATA, parse: parseFootballData };

export function parseFootballData(text: string): ParsedHistory {
  const out: ParsedHistory = { matches: [], prices: [], problems: [] };
  const [header, ...rows] = parseCsv(text);
  if (!header) return out;
  const index = new Map(header.fields.map((name, i) => [name.trim(), i]));
  for (const { line, fields } of rows) {
    const cell: Cell = (column) => {
      const i = index.get(column);
      return i === undefined ? undefined : fields[i]?.trim();
    };
    const problem = (field: string, reason: string): void => void out.problems.push({ line, field, reason });
    const match = matchOf(cell, problem);
    if (!match) continue;
    out.matches.push(match);
    for (const phase of PHASES) pricesOf(match, phase, cell, problem, out.prices);
  }
  return out;
}

function matchOf(cell: Cell, problem: (field: string, reason: string) => void): HistoricalMatch | null {
  const fail = (field: string, reason: string): null => {
    problem(field, reason);
    return null;
  };
  const division = cell('Div') ?? '';
  const league = LEAGUES.get(division) ?? fail('Div', `unknown division '${division}' (known: ${[...LEAGUES.keys()].join(', ')})`);
  const kickoff = kickoffOf(cell('Date') ?? '', cell('Time') ?? '') ?? fail('Date', 'not a dd/mm/yyyy date (with an HH:MM time)');
  const homeTeam = cell('HomeTeam') || fail('HomeTeam', 'empty');
  const awayTeam = cell('AwayTeam') || fail('AwayTeam', 'empty');
  const homeGoals = goalsOf(cell('FTHG')) ?? fail('FTHG', 'not a whole number of goals');
  const awayGoals = goalsOf(cell('FTAG')) ?? fail('FTAG', 'not a whole number of goals');
  if (league === null || kickoff === null || homeTeam === null || awayTeam === null || homeGoals === null || awayGoals === null)
    return null;
  const day = new Date(kickoff).toISOString().slice(0, 10).replaceAll('-', '');
  return {
    source: FOOTBALL_DATA,
    matchId: `${league}-${day}-${slug(awayTeam)}-${slug(homeTeam)}`,
    league,
    kickoff,
    homeTeam,
    awayTeam,
    homeGoals,
    awayGoals,
  };
}

function pricesOf(
  match: HistoricalMatch,
  phase: PricePhase,
  cell: Cell,
  problem: (field: string, reason: string) => void,
  out: HistoricalPrice[],
): void {
  const at = phase === 'opening' ? 0 : 1;
  const push = (book: string, market: MarketId, selection: SelectionType, line: number | null, column: string): void => {
    const raw = cell(column);
    if (raw === undefined || raw === '') return;
    const decimal = Number(raw);
    if (!Number.isFinite(decimal) || decimal <= 1) {
      problem(column, `'${raw}' is not a decimal price above 1`);
      return;
    }
    out.push({ source: match.source, matchId: match.matchId, book, market, selection, line, phase, decimal });
  };
  const lineColumn = HANDICAP_LINE[phase];
  const rawHandicap = cell(lineColumn);
  const handicap = rawHandicap === undefined || rawHandicap === '' ? null : Number(rawHandicap);
  const handicapKnown = handicap !== null && Number.isFinite(handicap) && Number.isInteger(handicap * 4);
  if (handicap !== null && !handicapKnown) problem(lineColumn, `'${rawHandicap}' is not a handicap in quarter goals`);
  for (const b of BOOKS) {
    const x = b.x12[at];
    push(b.book, 'moneyline', 'home', null, `${x}H`);
    push(b.book, 'moneyline', 'draw', null, `${x}D`);
    push(b.book, 'moneyline', 'away', null, `${x}A`);
    if (b.totals) {
      push(b.book, 'total_points', 'over', TOTAL_LINE, `${b.totals[at]}>2.5`);
      push(b.book, 'total_points', 'under', TOTAL_LINE, `${b.totals[at]}<2.5`);
    }
    if (b.handicap) {
      const home = `${b.handicap[at]}AHH`;
      const away = `${b.handicap[at]}AHA`;
      if (handicapKnown) {
        push(b.book, 'point_spread', 'home', handicap, home);
        push(b.book, 'point_spread', 'away', 0 - handicap, away);
      } else if (handicap === null && (cell(home) || cell(away))) problem(lineColumn, `empty, but ${home} / ${away} are priced`);
    }
  }
}

/** Their times are UK local time: British Summer Time from the last Sunday of March to the last of October, 01:00 UTC. */
function kickoffOf(date: string, time: string): number | null {
  const d = /^(\d{2})\/(\d{2})\/(\d{2}|\d{4})$/.exec(date);
  const t = time === '' ? ['', '15', '00'] : /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const year = Number(d[3]) + (d[3]?.length === 2 ? 2000 : 0);
  const month = Number(d[2]) - 1;
  const day = Number(d[1]);
  const local = Date.UTC(year, month, day, Number(t[1]), Number(t[2]));
  const check = new Date(local);
  if (check.getUTCMonth() !== month || check.getUTCDate() !== day || Number(t[1]) > 23 || Number(t[2]) > 59) return null;
  const summer = local - 3600_000 >= lastSundayUtc(year, 2) && local - 3600_000 < lastSundayUtc(year, 9);
  return summer ? local - 3600_000 : local;
}

/** 01:00 UTC on the last Sunday of the month (0-based), when the UK changes its clocks. */
function lastSundayUtc(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0, 1));
  return last.getTime() - last.getUTCDay() * 86_400_000;
}

function goalsOf(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

/** The catalog's way to make an id of a name ("Nott'm Forest" -> "nott-m-forest"). */
function slug(name: string): string {
  return foldName(name).replaceAll(' ', '-');
}
