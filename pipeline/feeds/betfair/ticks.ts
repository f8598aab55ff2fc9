import { LEAGUES } from '../../../schemas/index.js';
import type { ExchangeQuote, MarketId, RawTick } from '../../../schemas/index.js';
import { decimalToAmerican, netBackDecimal } from '../../odds-math/index.js';
import type { CatalogueMarket } from './catalogue.js';
import type { StreamDecoder } from './decoder.js';
import { bestBack, bestLay, runnerKey } from './market-cache.js';
import type { MarketBook, RunnerBook, RunnerDefinition } from './market-cache.js';

/**
 * Exchange markets as RawTicks in the exchange's own vocabulary (its team spellings, event id
 * and runner names): one tick per runner whose quote or status changed since the last tick it
 * got. The price of a runner is the best price available to back it, net of commission (what a
 * backer is paid); the tick's `exchange` carries both sides of the ladder as quoted, the sizes
 * at the best prices, the runner's traded volume and the commission.
 */

/** Betfair's standard base rate, percent: a market definition that names none is charged this. */
export const DEFAULT_BASE_RATE = 5;

/** Betfair event type ids (and, where one sport has several leagues of ours, competition names) to our leagues. */
const LEAGUE_BY_EVENT_TYPE: ReadonlyMap<string, string> = new Map([
  ['4', 'test_cricket'],
  ['7522', 'nba'],
  ['6423', 'nfl'],
  ['7524', 'nhl'],
  ['7511', 'mlb'],
]);

const SOCCER_EVENT_TYPE = '1';
const LEAGUE_BY_SOCCER_COMPETITION: ReadonlyMap<string, string> = new Map([
  ['English Premier League', 'epl'],
  ['Spanish La Liga', 'la_liga'],
  ['Italian Serie A', 'serie_a'],
  ['German Bundesliga', 'bundesliga'],
  ['US Major League Soccer', 'mls'],
  ['FIFA World Cup', 'fifa_world_cup'],
]);

/** Market types whose runners are the sides of the game (and the draw). */
const MARKET_TYPES: ReadonlyMap<string, MarketId> = new Map<string, MarketId>([
  ['MATCH_ODDS', 'moneyline'],
  ['MONEY_LINE', 'moneyline'],
]);

const SPORT_OF_LEAGUE = new Map(LEAGUES.map((l) => [l.id, l.sport] as const));

export function leagueOf(market: CatalogueMarket, eventTypeId: string | null): { league: string; sport: string } | null {
  const type = market.eventTypeId ?? eventTypeId;
  if (type === null) return null;
  const league =
    type === SOCCER_EVENT_TYPE ? LEAGUE_BY_SOCCER_COMPETITION.get(market.competitionName ?? '') : LEAGUE_BY_EVENT_TYPE.get(type);
  const sport = league === undefined ? undefined : SPORT_OF_LEAGUE.get(league);
  return league === undefined || sport === undefined ? null : { league, sport };
}

/** `Home v Away` (Betfair's usual order) or `Away @ Home` (American sports); null when the name is neither. */
export function teamsOfEventName(name: string): { homeTeam: string; awayTeam: string } | null {
  const v = name.split(' v ');
  if (v.length === 2 && v[0] && v[1]) return { homeTeam: v[0].trim(), awayTeam: v[1].trim() };
  const at = name.split(' @ ');
  if (at.length === 2 && at[0] && at[1]) return { homeTeam: at[1].trim(), awayTeam: at[0].trim() };
  return null;
}

function outcomeOf(runnerName: string): string {
  return runnerName === 'The Draw' ? 'Draw' : runnerName;
}

export type SkipReason = 'no_catalogue' | 'no_definition' | 'unknown_league' | 'unknown_market_type' | 'unnamed_event' | 'unnamed_runner';

export interface TickMapping {
  ticks: RawTick[];
  /** Why the market gave no ticks, when it could not be mapped. */
  skipped: SkipReason | null;
}

interface RunnerQuote {
  status: 'open' | 'suspended';
  priceAmerican: number | null;
  exchange: ExchangeQuote | null;
}

/** Money traded on a runner: the stream's total when it sends one, else the sum of its traded ladder. */
function tradedVolume(book: RunnerBook): number | null {
  if (book.tv !== null) return book.tv;
  if (book.trd.size === 0) return null;
  let sum = 0;
  for (const size of book.trd.values()) sum += size;
  return sum;
}

/**
 * A runner's quote: pulled when the market or the runner is out of play (a removed runner too:
 * its adjustment factor reprices bets already matched, nothing left to bet), locked while the
 * market is suspended.
 */
function quoteOf(market: MarketBook, runner: RunnerDefinition, commission: number): RunnerQuote {
  const def = market.definition;
  const pulled: RunnerQuote = { status: 'suspended', priceAmerican: null, exchange: null };
  if (def === null || def.status === 'CLOSED' || def.status === 'INACTIVE' || runner.status !== 'ACTIVE') return pulled;
  const book = market.runners.get(runnerKey(runner.id, runner.hc));
  if (book === undefined) return pulled;
  const back = bestBack(book);
  // Nothing to back (or a price the exchange cannot pay out on) leaves nothing a backer can take.
  if (back === null || !(back.price > 1)) return pulled;
  const lay = bestLay(book);
  const priceAmerican = decimalToAmerican(netBackDecimal(back.price, commission));
  const exchange: ExchangeQuote = {
    back: back.price,
    backSize: back.size,
    lay: lay?.price ?? null,
    laySize: lay?.size ?? null,
    volume: tradedVolume(book),
    commission,
  };
  return { status: def.status === 'SUSPENDED' ? 'suspended' : 'open', priceAmerican, exchange };
}

export interface ExchangeTickMapperOptions {
  /**
   * The commission the feed's exchange account pays, percent, when it is not the market's base
   * rate (accounts on a discount, or a different rate agreed); unset: each market's base rate.
   */
  commissionPercent?: number | null;
}

/** Remembers what each runner last got, so that a change which moves nothing of its quote gives no tick. */
export class ExchangeTickMapper {
  private readonly sent = new Map<string, string>();
  private readonly commissionPercent: number | null;

  constructor(
    private readonly book: string,
    options: ExchangeTickMapperOptions = {},
  ) {
    this.commissionPercent = options.commissionPercent ?? null;
  }

  /** Forgets what the market's runners got (the market closed and left the cache). */
  forget(market: MarketBook): void {
    for (const key of market.runners.keys()) this.sent.delete(`${market.id}|${key}`);
    for (const runner of market.definition?.runners ?? []) this.sent.delete(`${market.id}|${runnerKey(runner.id, runner.hc)}`);
  }

  ticksOf(market: MarketBook, catalogue: CatalogueMarket | undefined, publishTime: number): TickMapping {
    const skip = (skipped: SkipReason): TickMapping => ({ ticks: [], skipped });
    if (catalogue === undefined) return skip('no_catalogue');
    const def = market.definition;
    if (def === null) return skip('no_definition');
    const where = leagueOf(catalogue, def.eventTypeId);
    if (where === null) return skip('unknown_league');
    const marketType = MARKET_TYPES.get(catalogue.marketType ?? def.marketType ?? '');
    if (marketType === undefined) return skip('unknown_market_type');
    const teams = teamsOfEventName(catalogue.eventName ?? '');
    if (teams === null) return skip('unnamed_event');
    const names = new Map(catalogue.runners.map((r) => [runnerKey(r.selectionId, r.handicap), r.runnerName] as const));
    const startTime = Date.parse(catalogue.marketStartTime ?? def.marketTime ?? '');
    const ticks: RawTick[] = [];
    const commission = this.commissionPercent ?? def.marketBaseRate ?? DEFAULT_BASE_RATE;
    let unnamed = false;
    for (const runner of def.runners) {
      const key = runnerKey(runner.id, runner.hc);
      const name = names.get(key);
      if (name === undefined) {
        unnamed = true;
        continue;
      }
      const quote = quoteOf(market, runner, commission);
      const x = quote.exchange;
      const signature = `${quote.status}|${quote.priceAmerican ?? ''}|${def.inPlay}|${x === null ? '' : `${x.back}|${x.backSize}|${x.lay}|${x.laySize}|${x.volume}|${x.commission}`}`;
      const sentKey = `${market.id}|${key}`;
      if (this.sent.get(sentKey) === signature) continue;
      this.sent.set(sentKey, signature);
      ticks.push({
        book: this.book,
        bookEventId: catalogue.eventId ?? def.eventId ?? market.id,
        sport: where.sport,
        league: where.league,
        homeTeam: teams.homeTeam,
        awayTeam: teams.awayTeam,
        startTime: Number.isFinite(startTime) ? startTime : publishTime,
        isLive: def.inPlay,
        market: marketType,
        outcome: outcomeOf(name),
        line: null,
        participant: null,
        statCategory: null,
        priceAmerican: quote.priceAmerican,
        status: quote.status,
        ts: publishTime,
        selectionId: String(runner.id),
        ...(quote.exchange === null ? {} : { exchange: quote.exchange }),
      });
    }
    return { ticks, skipped: ticks.length === 0 && unnamed ? 'unnamed_runner' : null };
  }
}

/**
 * The ticks of one applied change: each market it touched, mapped with its catalogue entry. A
 * market that closed has given its last ticks (every runner pulled) and leaves the cache.
 */
export function ticksOfChange(
  decoder: StreamDecoder,
  mapper: ExchangeTickMapper,
  catalogue: (marketId: string) => CatalogueMarket | undefined,
  marketIds: readonly string[],
  publishTime: number,
): { ticks: RawTick[]; skipped: SkipReason[] } {
  const ticks: RawTick[] = [];
  const skipped: SkipReason[] = [];
  for (const id of marketIds) {
    const market = decoder.market(id);
    if (market === undefined) continue;
    const mapped = mapper.ticksOf(market, catalogue(id), publishTime);
    ticks.push(...mapped.ticks);
    if (mapped.skipped !== null) skipped.push(mapped.skipped);
    if (market.definition?.status === 'CLOSED') {
      decoder.forget(id);
      mapper.forget(market);
    }
  }
  return { ticks, skipped };
}

export function countSkip(counts: Record<string, number>, reason: SkipReason): void {
  counts[reason] = (counts[reason] ?? 0) + 1;
}
