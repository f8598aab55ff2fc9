import type { EventStatus, LeagueDef, MarketId, RawTick, TeamDef } from '../../../schemas/index.js';
import type { BookProfile, IdSequence } from './books.js';
import {
  type GameState,
  type LineGrid,
  PROP_GRID,
  fairHomeCover,
  fairMoneyline,
  fairOver,
  nextLine,
  propScale,
  sideGrid,
  teamMean,
  teamScale,
  totalGrid,
} from './fair.js';
import { negate, priceOutcomes } from './pricing.js';
import { type Prng, hash2 } from './prng.js';

/** The cases that trip event matchers, recorded on the events that carry them. */
export type MatcherTrap = 'doubleheader' | 'name_twin' | 'neutral_site';

export interface SimProp {
  player: string;
  side: 0 | 1;
  stat: string;
  mean: number;
  cv: number;
  /** Last news on the player, and how much it moved the mean: lagging books do not see it yet. */
  jumpAt: number;
  jumpDelta: number;
}

export interface SimEvent {
  serial: number;
  id: string;
  league: LeagueDef;
  home: TeamDef;
  away: TeamDef;
  startTime: number;
  endTime: number;
  status: EventStatus;
  neutralSite: boolean;
  traps: MatcherTrap[];
  state: GameState;
  props: SimProp[];
  jumpAt: number;
  jumpMargin: number;
  jumpTotal: number;
  /**
   * Before the game, the sharp line's lean over the truth, margin and total: steps of the sharp
   * line that it takes back (noise, not news), which the soft books follow as they follow news
   * (`PregameFollowing`, following.ts). Zero once the game is on.
   */
  leanMargin: number;
  leanTotal: number;
  listings: Listing[];
  /** Every book's quote of each of the game's markets, by `marketKey` (`Quote.peers`). */
  marketQuotes: Map<string, Quote[]>;
}

/** One book's listing of one event, in that book's vocabulary. */
export interface Listing {
  book: BookProfile;
  event: SimEvent;
  bookEventId: string;
  /** Home and away as the book lists them (the other way round when `flipped`). */
  homeTeam: string;
  awayTeam: string;
  /** The book's spelling of the true home and away teams, which its outcomes use. */
  homeName: string;
  awayName: string;
  startTime: number;
  flipped: boolean;
  /** No longer quoted at all: a book without live odds once the game is on, or the game is over. */
  closed: boolean;
  /**
   * Steps of the sharp line before the game (news, and the lean's steps and reversals) that the
   * book has not taken in yet, margin and total: a soft book follows each after a delay of its
   * own, or not before the game (`following.ts`). Zero for sharp books, and for every book once
   * the game is on.
   */
  behindMargin: number;
  behindTotal: number;
  quotes: Quote[];
  selectionIds: IdSequence | null;
}

export interface Outcome {
  label: string;
  line: number | null;
  price: number;
  selectionId: string | null;
  /** When the book last moved this price (a requote at the same price confirms it and keeps this). */
  changedAt: number;
}

export type QuoteKind = 'moneyline' | 'side' | 'total' | 'team_total' | 'prop';

/** A group of outcomes a book prices against each other at one line (a two- or three-way market). */
export interface Quote {
  uid: number;
  listing: Listing;
  market: MarketId;
  kind: QuoteKind;
  /** Share of the game the market covers: 1, 0.5 (1st half), 0.25 (1st quarter). */
  period: number;
  teamSide: 0 | 1;
  prop: SimProp | null;
  grid: LineGrid | null;
  participant: string | null;
  statCategory: string | null;
  /** Home handicap for sides, threshold for totals and props; null for moneylines. */
  line: number | null;
  outcomes: Outcome[];
  /** False while the book has this one market suspended. */
  open: boolean;
  /**
   * While suspended: whether the book locked the market (its rows stay at their last prices) or
   * took it down (its rows are gone until it comes back).
   */
  locked: boolean;
  lastTs: number;
  /** The book's lean: probability moved from the last outcome to the first. */
  tilt: number;
  /** The wandering part of the lean (`BookProfile.wander`), and when it was last moved on. */
  wander: number;
  wanderAt: number;
  /** When the book next moves the wandering lean of a quote of a game not started (its own step, `BookProfile.ownStepsPerHour`). */
  nextOwnStep: number;
  /** Queued for a requote or restore, so it is never queued twice. */
  pending: boolean;
  /** When the book next confirms it (its cadence); Infinity while it is not scheduled. */
  confirmAt: number;
  /** When the book takes its lean off a pre-game price another book's crosses (`crossing.ts`); Infinity while none is due. */
  correctAt: number;
  /**
   * Every book's quote of the same market of the game (this one included), whatever the line:
   * the quotes a crossing check compares (`crossing.ts`), where scanning every book's quotes for
   * them took the simulator's ten minutes from 3.4 s to 5.8-7.7 s (3.4 s to 4.6-5.5 s this way).
   */
  peers: Quote[];
}

/** lastTs of a quote never priced yet. */
const NEVER = -Infinity;

function outcome(label: string): Outcome {
  return { label, line: null, price: 100, selectionId: null, changedAt: NEVER };
}

/** The quotes a book hangs on an event, from the league's market menu. */
export function buildQuotes(listing: Listing, nextUid: () => number): Quote[] {
  const ev = listing.event;
  const league = ev.league;
  const book = listing.book;
  const home = listing.homeName;
  const away = listing.awayName;
  const quotes: Quote[] = [];
  const add = (
    market: MarketId,
    kind: QuoteKind,
    labels: readonly string[],
    extra: Partial<Pick<Quote, 'period' | 'teamSide' | 'prop' | 'grid' | 'participant' | 'statCategory'>> = {},
  ): void => {
    const prop = extra.prop ?? null;
    const key = `${market}|${kind}|${extra.period ?? 1}|${extra.teamSide ?? 0}|${prop === null ? -1 : ev.props.indexOf(prop)}`;
    let peers = ev.marketQuotes.get(key);
    if (peers === undefined) {
      peers = [];
      ev.marketQuotes.set(key, peers);
    }
    const q: Quote = {
      uid: nextUid(),
      listing,
      market,
      kind,
      period: extra.period ?? 1,
      teamSide: extra.teamSide ?? 0,
      prop,
      grid: extra.grid ?? null,
      participant: extra.participant ?? null,
      statCategory: extra.statCategory ?? null,
      line: null,
      outcomes: labels.map(outcome),
      open: true,
      locked: false,
      lastTs: NEVER,
      tilt: 0,
      wander: 0,
      wanderAt: NEVER,
      nextOwnStep: NEVER,
      pending: false,
      confirmAt: Infinity,
      correctAt: Infinity,
      peers,
    };
    peers.push(q);
    quotes.push(q);
  };
  const sides = [home, away] as const;
  const overUnder = ['Over', 'Under'] as const;
  for (const market of league.markets) {
    switch (market) {
      case 'moneyline':
        add(market, 'moneyline', league.threeWay ? [home, 'Draw', away] : sides);
        break;
      case 'point_spread':
        add(market, 'side', sides, { grid: sideGrid(league, 1) });
        break;
      case 'total_points':
        add(market, 'total', overUnder, { grid: totalGrid(league, 1) });
        break;
      case 'team_total':
        add(market, 'team_total', overUnder, { teamSide: 0, participant: home, grid: totalGrid(league, 1) });
        add(market, 'team_total', overUnder, { teamSide: 1, participant: away, grid: totalGrid(league, 1) });
        break;
      case '1st_half':
      case '1st_quarter': {
        const period = market === '1st_half' ? 0.5 : 0.25;
        add(market, 'side', sides, { period, grid: sideGrid(league, period) });
        add(market, 'total', overUnder, { period, grid: totalGrid(league, period) });
        break;
      }
      case 'player_prop':
        if (!book.hasPlayerProps) break;
        for (const prop of ev.props) {
          add(market, 'prop', overUnder, { prop, grid: PROP_GRID, participant: prop.player, statCategory: prop.stat });
        }
        break;
      case 'game_prop':
      case 'future':
        break;
    }
  }
  return quotes;
}

/**
 * How a quote's current line goes out: `open` prices, `locked` (suspended with the prices the
 * book froze: the line comes back) or `pulled` (suspended with no price: the line is gone).
 */
export type QuoteState = 'open' | 'locked' | 'pulled';

/** Appends one tick per outcome of the quote's current line, in the given state. */
export function pushTicks(q: Quote, ts: number, state: QuoteState, out: RawTick[]): void {
  const l = q.listing;
  const ev = l.event;
  const isLive = ev.status === 'live';
  for (const o of q.outcomes) {
    out.push({
      book: l.book.id,
      bookEventId: l.bookEventId,
      sport: ev.league.sport,
      league: ev.league.id,
      homeTeam: l.homeTeam,
      awayTeam: l.awayTeam,
      startTime: l.startTime,
      isLive,
      market: q.market,
      outcome: o.label,
      line: o.line,
      participant: q.participant,
      statCategory: q.statCategory,
      priceAmerican: state === 'pulled' ? null : o.price,
      status: state === 'open' ? 'open' : 'suspended',
      ts,
      selectionId: o.selectionId,
      oddsChangedAt: Math.min(o.changedAt, ts),
      // The simulated feed sees a price the moment the book sets it.
      observedAt: ts,
    });
  }
}

/** What a book believes: the truth, minus news it has not caught up with yet. */
interface View {
  margin: number;
  total: number;
  propMean: number;
}
const view: View = { margin: 0, total: 0, propMean: 0 };
const fair: number[] = [0, 0, 0];
const prices: number[] = [0, 0, 0];

/** How long the book takes to follow news in this phase of the game. */
export function lagOf(book: BookProfile, isLive: boolean): number {
  return isLive ? book.lagMs : book.prematchLagMs;
}

/**
 * The game as the book sees it at `now`: the truth and the sharp line's lean, less the last news
 * within its lag and the pre-game steps it has not followed (unless `asBook` is false: the truth
 * itself).
 */
function fillView(q: Quote, now: number, lagMs: number, asBook = true): void {
  const l = q.listing;
  const ev = l.event;
  const lagged = now - ev.jumpAt < lagMs;
  view.margin = (lagged ? ev.state.margin - ev.jumpMargin : ev.state.margin) + (asBook ? ev.leanMargin - l.behindMargin : 0);
  view.total = (lagged ? ev.state.total - ev.jumpTotal : ev.state.total) + (asBook ? ev.leanTotal - l.behindTotal : 0);
  const p = q.prop;
  if (p !== null) view.propMean = now - p.jumpAt < lagMs ? p.mean - p.jumpDelta : p.mean;
}

function targetLine(q: Quote): number | null {
  const st = q.listing.event.state;
  const grid = q.grid;
  if (grid === null) return null;
  const root = Math.sqrt(q.period);
  switch (q.kind) {
    case 'moneyline':
      return null;
    case 'side':
      return nextLine(q.line, -view.margin * q.period, grid, st.marginScale * root);
    case 'total':
      return nextLine(q.line, view.total * q.period, grid, st.totalScale * root);
    case 'team_total':
      return nextLine(q.line, teamMean(view.total, view.margin, q.teamSide), grid, teamScale(st));
    case 'prop':
      return nextLine(q.line, view.propMean, grid, propScale(view.propMean, q.prop?.cv ?? 0.4));
  }
}

/** Fair probabilities of the quote's outcomes at `line`, from the view; returns the count. */
function fairInto(q: Quote, line: number, out: number[]): number {
  const st = q.listing.event.state;
  let p: number;
  switch (q.kind) {
    case 'moneyline':
      return fairMoneyline(st, view.margin, out);
    case 'side':
      p = fairHomeCover(st, view.margin, q.period, line);
      break;
    case 'total':
      p = fairOver(view.total * q.period, st.totalScale * Math.sqrt(q.period), line);
      break;
    case 'team_total':
      p = fairOver(teamMean(view.total, view.margin, q.teamSide), teamScale(st), line);
      break;
    case 'prop':
      p = fairOver(view.propMean, propScale(view.propMean, q.prop?.cv ?? 0.4), line);
      break;
  }
  out[0] = p;
  out[1] = 1 - p;
  return 2;
}

/** The fair probabilities of a quote's outcomes at its current line, from the true state. */
export function trueFair(q: Quote): number[] {
  fillView(q, 0, -Infinity, false);
  const n = fairInto(q, q.line ?? 0, fair);
  return fair.slice(0, n);
}

/**
 * How far a shaded side moves, as a probability: 1-2.5 points. The recordings' books sit off the
 * consensus by 2.2 points at the 99th percentile and 3.1-3.5 at the 99.9th, where shades of
 * 0.5-1.5 points left the simulated books at 1.6 and 2.6: too few soft prices far enough off the
 * market to be +EV before the game (docs/simulator.md).
 */
const SHADE_MIN = 0.01;
const SHADE_MAX = 0.025;

/** A fresh lean for the quote: the book's opinion, plus now and then a shaded side. */
export function drawTilt(book: BookProfile, rng: Prng): number {
  let tilt = book.opinion * rng.normal();
  if (book.shadeShare > 0 && rng.chance(book.shadeShare)) {
    tilt += (rng.chance(0.5) ? 1 : -1) * rng.range(SHADE_MIN, SHADE_MAX);
  }
  return tilt;
}

const HOUR_MS = 3_600_000;

/**
 * How long a book's wandering lean takes to forget itself, hours: read off the recordings, a
 * book's pre-match offset from the consensus differs between two snapshots the more the farther
 * apart they are, as a lean reverting to the book's own opinion over 12-22 hours would
 * (docs/simulator.md, "Stop 48").
 */
export const WANDER_HOURS = 16;
const WANDER_MS = WANDER_HOURS * HOUR_MS;

/**
 * The quote's wandering lean moved on to `now`: a mean-reverting walk around zero with standard
 * deviation `sd` (Ornstein-Uhlenbeck, stepped exactly whatever the gap, so how often a book
 * reprices does not change how far it wanders). The first draw is from the walk's own spread.
 */
export function wanderOn(previous: number, previousAt: number, now: number, sd: number, rng: Prng): number {
  if (sd <= 0) return 0;
  if (previousAt === NEVER) return sd * rng.normal();
  const keep = Math.exp(-Math.max(0, now - previousAt) / WANDER_MS);
  return previous * keep + sd * Math.sqrt(1 - keep * keep) * rng.normal();
}

/**
 * Moves the quote's wandering lean on to `now`: in play at every reprice; before the game only at
 * the book's own steps, which come at the rate the recorded soft books step on their own
 * (`BookProfile.ownStepsPerHour`): their pre-match moneylines stand still between steps rather than
 * creep with every confirmation (docs/simulator.md, "Stop 52"). The same walk either way, sampled
 * at those times, so the books spread around the market as widely as before. The wander carries
 * over a line move: it is the book's lean on the game, not on one line.
 */
function moveWander(q: Quote, now: number, rng: Prng): void {
  const book = q.listing.book;
  const ownSteps = q.listing.event.status !== 'live' && book.ownStepsPerHour > 0;
  if (ownSteps && q.wanderAt !== NEVER && now < q.nextOwnStep) return;
  q.wander = wanderOn(q.wander, q.wanderAt, now, book.wander, rng);
  q.wanderAt = now;
  // The time to the next step by hash, not drawn, so that the opening board is the same draw for draw.
  if (ownSteps) q.nextOwnStep = now + (HOUR_MS / book.ownStepsPerHour) * -Math.log(1 - hash2(q.uid, Math.floor(now)) / 4294967296);
}

function setLine(q: Quote, line: number | null): void {
  q.line = line;
  const ids = q.listing.selectionIds;
  q.outcomes.forEach((o, i) => {
    o.line = line === null ? null : q.kind === 'side' && i === 1 ? negate(line) : line;
    o.selectionId = ids === null ? null : ids.next();
  });
}

/**
 * Reprices a quote as the book sees the game now and appends its ticks. A moved line first
 * pulls the old line's rows (downstream latest-odds are keyed by line), then opens the new.
 * An unchanged price still goes out with the new timestamp: the book confirmed it. A locked
 * quote reopens here; if its line moved meanwhile, the locked line's pull goes to `pulls`.
 */
export function requote(q: Quote, now: number, rng: Prng, out: RawTick[], pulls: RawTick[] = out): void {
  const book = q.listing.book;
  fillView(q, now, lagOf(book, q.listing.event.status === 'live'));
  const line = targetLine(q);
  const first = q.lastTs === NEVER;
  const moved = first || line !== q.line;
  if (moved) {
    if (q.open && !first) pushTicks(q, now, 'pulled', out);
    else if (q.locked) pushTicks(q, now, 'pulled', pulls);
    setLine(q, line);
    q.tilt = drawTilt(book, rng);
  }
  moveWander(q, now, rng);
  const n = fairInto(q, line ?? 0, fair);
  const overround = q.listing.event.status === 'live' ? book.overround : book.prematchOverround;
  priceOutcomes(fair, n, overround, q.tilt + q.wander, book.cents, prices);
  for (let i = 0; i < q.outcomes.length; i++) {
    const o = q.outcomes[i];
    if (o === undefined) continue;
    const price = prices[i] ?? 100;
    if (moved || price !== o.price) o.changedAt = now;
    o.price = price;
  }
  q.open = true;
  q.locked = false;
  q.lastTs = now;
  pushTicks(q, now, 'open', out);
}
