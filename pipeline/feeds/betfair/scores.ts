import type { EventStatus, RawGameState } from '../../../schemas/index.js';
import type { CatalogueMarket } from './catalogue.js';
import { isObject, readStreamLine } from './stream-line.js';
import type { Json } from './stream-line.js';
import { leagueOf } from './ticks.js';

/**
 * Betfair's cricket score stream (`ccm` messages, one line each) as game-state reports in the
 * exchange's vocabulary: the same book, event id and team spellings as its ticks, so that the
 * normalizer finds the listing the odds made. A message carries, per market, any of the
 * fixture's parts (`fixtureInfo`, `homeTeam`/`awayTeam`, `matchStats`); each part it carries
 * replaces the one before, and the state is derived from the latest of each.
 */

export type ScoreMessage =
  | { kind: 'scores'; publishTime: number; states: RawGameState[] }
  | { kind: 'invalid'; reason: string; marketId: string | null }
  | { kind: 'other' };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

const STATUS_OF_FIXTURE: ReadonlyMap<string, EventStatus> = new Map<string, EventStatus>([
  ['PRE_MATCH', 'upcoming'],
  ['IN_RUNNING', 'live'],
  ['FINISHED', 'final'],
]);

interface Fixture {
  eventId: string | null;
  info: Json | null;
  homeTeam: Json | null;
  awayTeam: Json | null;
  stats: Json | null;
  status: EventStatus | null;
}

/** Overs as shown ("19.4": 19 overs and 4 balls) to balls, and back: innings add up in balls. */
function ballsOf(overs: unknown): number {
  const text = typeof overs === 'number' ? String(overs) : str(overs);
  if (text === null) return 0;
  const [whole, balls] = text.split('.');
  return int(Number(whole)) * 6 + int(Number(balls ?? '0'));
}

function oversOf(balls: number): string {
  const rest = balls % 6;
  return rest === 0 ? String((balls - rest) / 6) : `${(balls - rest) / 6}.${rest}`;
}

/** One side's innings together: runs, wickets lost, balls faced. */
function battingOf(stats: Json | null, team: string): { runs: number; wickets: number; balls: number } {
  const total = { runs: 0, wickets: 0, balls: 0 };
  const innings = stats?.['inningsStats'];
  if (!Array.isArray(innings)) return total;
  for (const i of innings as unknown[]) {
    if (!isObject(i) || str(i['battingTeam']) !== team) continue;
    total.runs += int(i['inningsRuns']);
    total.wickets += int(i['inningsWickets']);
    total.balls += ballsOf(i['inningsOvers']);
  }
  return total;
}

function nameOf(info: Json | null, team: Json | null, side: 'homeTeam' | 'awayTeam'): string | null {
  return str(info?.[side]) ?? str(team?.['name']);
}

export class CricketScoreMapper {
  private readonly fixtures = new Map<string, Fixture>();
  /** What each market last reported, so that a message that moves nothing gives no state. */
  private readonly sent = new Map<string, string>();

  constructor(
    private readonly book: string,
    private readonly catalogue: (marketId: string) => CatalogueMarket | undefined,
  ) {}

  receive(line: string): ScoreMessage {
    const read = readStreamLine(line);
    if ('reason' in read) return { kind: 'invalid', reason: read.reason, marketId: null };
    const message = read.message;
    if (message['op'] !== 'ccm') return { kind: 'other' };
    const publishTime = message['pt'];
    if (typeof publishTime !== 'number' || !Number.isFinite(publishTime))
      return { kind: 'invalid', reason: 'ccm without a publish time (pt)', marketId: null };
    const changes = message['cc'];
    if (!Array.isArray(changes)) return { kind: 'invalid', reason: 'ccm without its changes (cc)', marketId: null };
    const states: RawGameState[] = [];
    for (const change of changes as unknown[]) {
      if (!isObject(change)) return { kind: 'invalid', reason: 'a cricket change that is not an object', marketId: null };
      const marketId = str(change['marketId']);
      if (marketId === null) return { kind: 'invalid', reason: 'a cricket change without its marketId', marketId: null };
      const state = this.apply(marketId, change, publishTime);
      if (state !== null) states.push(state);
    }
    return { kind: 'scores', publishTime, states };
  }

  private apply(marketId: string, change: Json, publishTime: number): RawGameState | null {
    let f = this.fixtures.get(marketId);
    if (f === undefined) {
      f = { eventId: null, info: null, homeTeam: null, awayTeam: null, stats: null, status: null };
      this.fixtures.set(marketId, f);
    }
    f.eventId = str(change['eventId']) ?? f.eventId;
    if (isObject(change['fixtureInfo'])) f.info = change['fixtureInfo'];
    if (isObject(change['homeTeam'])) f.homeTeam = change['homeTeam'];
    if (isObject(change['awayTeam'])) f.awayTeam = change['awayTeam'];
    if (isObject(change['matchStats'])) f.stats = change['matchStats'];
    f.status = STATUS_OF_FIXTURE.get(str(f.info?.['fixtureStatus']) ?? '') ?? f.status;
    const state = this.stateOf(marketId, f, publishTime);
    if (state === null) return null;
    const signature = JSON.stringify([state.status, state.homeScore, state.awayScore, state.period, state.extras]);
    if (this.sent.get(marketId) === signature) return null;
    this.sent.set(marketId, signature);
    return state;
  }

  private stateOf(marketId: string, f: Fixture, publishTime: number): RawGameState | null {
    const market = this.catalogue(marketId);
    const where = market === undefined ? null : leagueOf(market, null);
    const homeTeam = nameOf(f.info, f.homeTeam, 'homeTeam');
    const awayTeam = nameOf(f.info, f.awayTeam, 'awayTeam');
    const bookEventId = market?.eventId ?? f.eventId;
    if (where === null || f.status === null || homeTeam === null || awayTeam === null || bookEventId === null) return null;
    const home = battingOf(f.stats, homeTeam);
    const away = battingOf(f.stats, awayTeam);
    const innings = f.stats?.['currentInnings'];
    return {
      kind: 'gamestate',
      book: this.book,
      bookEventId,
      sport: where.sport,
      league: where.league,
      homeTeam,
      awayTeam,
      ts: publishTime,
      status: f.status,
      homeScore: home.runs,
      awayScore: away.runs,
      period: typeof innings === 'number' && f.status !== 'upcoming' ? `I${innings}` : null,
      clock: null,
      possession: null,
      server: null,
      lastPlay: null,
      extras: f.stats === null ? {} : { wickets: [home.wickets, away.wickets], overs: [oversOf(home.balls), oversOf(away.balls)] },
    };
  }
}
