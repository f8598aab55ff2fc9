import type { EventStatus, RawFutures, RawGameState, RawSplits, RawTick } from '../../../schemas/index.js';
import { type Listing, type Quote, type SimEvent, type SimProp, buildQuotes, lagOf, pushTicks, requote } from './board.js';
import {
  type BookProfile,
  type GamePhase,
  IdSequence,
  bookProfiles,
  ensureTrapHabits,
  listsEvent,
  reportedStartTime,
  spellTeam,
} from './books.js';
import { LIVE_REGIME, type Regime, evolve } from './dynamics.js';
import { CrossingCorrections } from './crossing.js';
import { PregameFollowing, atStart } from './following.js';
import { FuturesModel } from './futures.js';
import { GamePlay } from './gameplay.js';
import { scalesFor, strengthSpread } from './fair.js';
import { TimedHeap } from '../../timed-heap.js';
import { type MarketSimulatorOptions, type ResolvedSimulatorOptions, resolveSimulatorOptions } from './options.js';
import { Planner } from './planner.js';
import { rosterProps } from './players.js';
import { Prng, hash2 } from './prng.js';
import { type EventPlan, MINUTE, durationMs } from './schedule.js';
import { SplitsModel } from './splits.js';
import { type QuoteView, type TrueEvent, toQuoteView, toTrueEvent } from './truth.js';

interface BookRuntime {
  profile: BookProfile;
  eventIds: IdSequence;
  selectionIds: IdSequence | null;
}

interface Due {
  quote: Quote;
  /** Restore a market the book pulled; otherwise requote after news. */
  restore: boolean;
}

/** Ended events kept for `trueEvents({ includeEnded: true })` and id lookups. */
const ENDED_KEPT = 2_000;

/** A book's interval between two confirmations of a quote, as shares of its cadence: a ±25 % jitter. */
const JITTER_MIN = 0.75;
const JITTER_MAX = 1.25;

/** How far back an opening quote's sitting spell is looked for, in windows. */
const MAX_SITTING_WINDOWS = 100;

/**
 * The deterministic core of the simulated feed: a board of events and every book's quotes on
 * them, moved forward by `step`. The same options and the same sequence of `step(now, maxTicks)`
 * calls produce the same ticks. No timers, no wall clock (the clock is read once, for the start
 * time). Generating costs about 0.5 us a tick (1.5-3M ticks/s on one core, Node 20, default
 * board, steps of 1000-5000 ticks), so the feed's 100k ticks/s leave the core mostly idle.
 */
/** Below this size the confirmation schedule is never compacted: a pass would cost more than it frees. */
const MIN_CONFIRMATIONS_COMPACTED = 4_096;

export class MarketSimulator {
  private readonly opts: ResolvedSimulatorOptions;
  private readonly liveRegime: Regime;
  /**
   * Schedule, new games, and the truth of games in play and their books' lags after news;
   * separate from `activity` so that the games do not depend on the tick rate.
   */
  private readonly world: Prng;
  /**
   * The truth of games not started and their books' lags after pre-game news (`drawsFor`). Apart
   * from `world` so that a change to the pre-game model leaves the games in play drawn as they
   * were: on one stream, one pre-game draw more or fewer shifted every later draw of the games in
   * play, and a trial of the pre-game model moved the live figures with the live model untouched
   * (docs/simulator.md, "Stop 53" and "Stop 54").
   */
  private readonly pregame: Prng;
  private readonly activity: Prng;
  private readonly books: BookRuntime[];
  private readonly planner: Planner;
  private readonly play: GamePlay;
  private readonly due = new TimedHeap<Due>();
  /** Who takes in what of the sharp line before the game: soft books' follows, the sharp lean's reversals. */
  private readonly following: PregameFollowing;
  /** Soft pre-game prices another book's crosses, each until its book takes its lean off it. */
  private readonly corrections = new CrossingCorrections();
  /**
   * Each open quote at the time its book next confirms it (entries whose time is no longer the
   * quote's `confirmAt` are skipped), games in play apart from those not started: when the budget
   * is short, in-play prices are confirmed first (`confirmDue`). With each, the size at which its
   * skipped entries are next dropped (`scheduleConfirmation`).
   */
  private readonly confirmations: Record<GamePhase, { heap: TimedHeap<Quote>; compactAt: number }> = {
    live: { heap: new TimedHeap<Quote>(), compactAt: MIN_CONFIRMATIONS_COMPACTED },
    prematch: { heap: new TimedHeap<Quote>(), compactAt: MIN_CONFIRMATIONS_COMPACTED },
  };
  private readonly byBookEventId = new Map<string, SimEvent>();
  private readonly staleSalt: number;
  private readonly splitsModel: SplitsModel;
  private readonly futuresModel: FuturesModel;
  private active: SimEvent[] = [];
  private readonly ended: SimEvent[] = [];
  private allQuotes: Quote[] = [];
  private liveQuotes: Quote[] = [];
  private sharpQuotes: Quote[] = [];
  private poolsDirty = true;
  /**
   * Pulls of locked lines (restored at another line, or on a listing that closes), and the locks
   * books put on a game at a score: they go out first in the step's ticks and outside its budget, so that the rest of the board moves exactly
   * as it would if a suspension had removed the rows at once.
   */
  private pulls: RawTick[] = [];
  private serial = 0;
  private uid = 0;
  private clockMs: number;

  constructor(options: MarketSimulatorOptions = {}) {
    this.opts = resolveSimulatorOptions(options);
    this.liveRegime = { ...LIVE_REGIME, ...this.opts.liveMoves };
    const root = new Prng(this.opts.seed);
    this.world = root.fork();
    this.activity = root.fork();
    const ids = root.fork();
    this.staleSalt = root.nextUint32();
    // Forked last, so the other streams (and so the ticks) are the same as before splits existed.
    this.splitsModel = new SplitsModel(root.fork());
    const futuresRng = root.fork();
    // Forked last, so that every stream above starts as before it existed.
    this.pregame = root.fork();
    // Its draws a stream of their own, forked after the pre-game one, so that the other streams start as before.
    this.following = new PregameFollowing(root.fork(), (l, at) => this.queueListing(l, at, null));
    const catalog = this.opts.catalog;
    this.books = ensureTrapHabits(bookProfiles(catalog.books)).map((profile) => ({
      profile,
      eventIds: new IdSequence(profile.eventIds, ids.fork()),
      selectionIds: profile.selectionIds === null ? null : new IdSequence(profile.selectionIds, ids.fork()),
    }));
    this.planner = new Planner(this.opts, this.world);
    this.play = new GamePlay(this.opts.seed, this.opts.postponedShare);
    this.clockMs = this.opts.clock.now();
    this.futuresModel = new FuturesModel(
      futuresRng,
      catalog.leagues,
      catalog.teams,
      this.books.map((b) => b.profile),
      this.clockMs,
    );
    const opening: RawTick[] = [];
    for (const plan of this.planner.opening(this.clockMs)) this.createEvent(plan, this.clockMs, opening);
    for (const ev of this.active) for (const l of ev.listings) for (const q of l.quotes) this.openAsRunning(q, this.clockMs);
  }

  /** Simulated time of the last step (the clock's time at construction before the first). */
  get now(): number {
    return this.clockMs;
  }

  /** Every open quote of every book as it stands, each with the time the book last set or confirmed it. */
  snapshot(): RawTick[] {
    const out: RawTick[] = [];
    for (const ev of this.active) {
      for (const l of ev.listings) {
        if (l.closed) continue;
        for (const q of l.quotes) if (q.open) pushTicks(q, q.lastTs, 'open', out);
      }
    }
    return out;
  }

  /**
   * Moves the board to `nowMs` and returns what changed. What time forces (new listings, lines
   * pulled at kickoff or at the end, markets a book locks) is always returned; repricing
   * (requotes, line moves, confirmations, restored markets) fills the rest up to `maxTicks`.
   * Pulls of lines that were locked come first, beyond `maxTicks`.
   */
  step(nowMs: number, maxTicks: number): RawTick[] {
    if (!Number.isFinite(nowMs) || !Number.isFinite(maxTicks)) {
      throw new RangeError(`step needs finite arguments, got (${nowMs}, ${maxTicks})`);
    }
    const out: RawTick[] = [];
    const now = Math.max(nowMs, this.clockMs);
    if (now > this.clockMs) this.advance(now, out);
    const limit = Math.max(0, Math.floor(maxTicks));
    this.processDue(now, out, limit);
    this.confirmDue(now, out, limit);
    if (this.opts.fillBudget) this.extraActivity(now, out, limit);
    if (this.pulls.length === 0) return out;
    const all = [...this.pulls, ...out];
    this.pulls = [];
    return all;
  }

  /**
   * A round of betting splits at `nowMs` from the books that publish them (draftkings, circa),
   * for every event they list. Sharp money in this round moves the truth of its game, and the
   * books requote it over the next steps: the line follows the money.
   */
  splits(nowMs: number): RawSplits[] {
    const now = Math.max(nowMs, this.clockMs);
    const { splits, moved } = this.splitsModel.round(this.active, now);
    for (const ev of moved) this.queueRequotes(ev, now, null);
    return splits;
  }

  /**
   * A round of outright boards at `nowMs`: every book's board of every futures market whose
   * prices changed since it last posted (all of them on the first round). Results of games that
   * went final since the last round have moved the title race already.
   */
  futures(nowMs: number): RawFutures[] {
    return this.futuresModel.round(Math.max(nowMs, this.clockMs));
  }

  /** Decided games the futures took in (the last 2000), winner and loser by catalog name. */
  futuresResults(): readonly { league: string; winner: string; loser: string }[] {
    return this.futuresModel.results;
  }

  /** Futures markets on the board. */
  get futuresMarkets(): number {
    return this.futuresModel.marketCount;
  }

  /** The real games behind the ticks, with every book's id for each (upcoming and live; ended on request). */
  trueEvents(options: { includeEnded?: boolean } = {}): TrueEvent[] {
    const events = options.includeEnded === true ? [...this.ended, ...this.active] : this.active;
    return events.map(toTrueEvent);
  }

  /** The true event id behind a book's event id (kept for the last 2000 ended events too). */
  trueEventId(book: string, bookEventId: string): string | undefined {
    return this.byBookEventId.get(`${book}\u0000${bookEventId}`)?.id;
  }

  /** Every quote still listed, next to its fair probabilities. */
  inspect(): QuoteView[] {
    const out: QuoteView[] = [];
    for (const ev of this.active) {
      for (const l of ev.listings) {
        if (l.closed) continue;
        for (const q of l.quotes) out.push(toQuoteView(q, this.isStale(q, this.clockMs)));
      }
    }
    return out;
  }

  stats(): { events: number; liveEvents: number; listings: number; openRows: number } {
    let listings = 0;
    let openRows = 0;
    for (const ev of this.active) {
      for (const l of ev.listings) {
        if (l.closed) continue;
        listings++;
        for (const q of l.quotes) if (q.open) openRows += q.outcomes.length;
      }
    }
    const liveEvents = this.active.filter((e) => e.status === 'live').length;
    return { events: this.active.length, liveEvents, listings, openRows };
  }

  private createEvent(plan: EventPlan, now: number, out: RawTick[]): void {
    const { league, home, away } = plan;
    const rng = this.world;
    const serial = ++this.serial;
    const { marginScale, totalScale } = scalesFor(league);
    const z = Math.max(-2.5, Math.min(2.5, (plan.neutralSite ? 0 : 0.15) + strengthSpread(league) * rng.normal()));
    const base = league.scoring.total;
    const props: SimProp[] = [];
    if (league.markets.includes('player_prop')) {
      const homeRoster = rosterProps(home, league);
      const homeNames = new Set(homeRoster.map((r) => r.player));
      for (const side of [0, 1] as const) {
        for (const r of side === 0 ? homeRoster : rosterProps(away, league)) {
          // Made-up names can repeat across teams; a prop is keyed by player name, so set them apart.
          const player = side === 1 && homeNames.has(r.player) ? `${r.player} Jr.` : r.player;
          const mean = r.baseMean * Math.exp(0.08 * rng.normal());
          props.push({ player, side, stat: r.stat, mean, cv: r.cv, jumpAt: -Infinity, jumpDelta: 0 });
        }
      }
    }
    const ev: SimEvent = {
      serial,
      id: `sim-${serial}`,
      league,
      home,
      away,
      startTime: plan.startTime,
      endTime: plan.startTime + durationMs(league),
      status: plan.startTime <= now ? 'live' : 'upcoming',
      neutralSite: plan.neutralSite,
      traps: plan.neutralSite ? [...plan.traps, 'neutral_site'] : [...plan.traps],
      state: {
        margin: z * marginScale,
        total: base > 0 ? base * (1 + 0.05 * rng.normal()) : 0,
        marginScale,
        totalScale,
        drawBase: league.threeWay ? 0.28 * Math.sqrt(2.5 / Math.max(base, 1)) : 0,
      },
      props,
      jumpAt: -Infinity,
      jumpMargin: 0,
      jumpTotal: 0,
      leanMargin: 0,
      leanTotal: 0,
      listings: [],
      marketQuotes: new Map(),
    };
    for (const rt of this.books) {
      const book = rt.profile;
      if (ev.status === 'live' && !book.hasLiveOdds) continue;
      // Matcher-trap games are listed everywhere, so every book's spelling and ids take part.
      if (plan.traps.length === 0 && !listsEvent(book, serial)) continue;
      const homeName = spellTeam(book, home);
      const awayName = spellTeam(book, away);
      const flipped = plan.neutralSite && book.flipsNeutralSites;
      const homeTeam = flipped ? awayName : homeName;
      const awayTeam = flipped ? homeName : awayName;
      const listing = {
        book,
        event: ev,
        bookEventId: rt.eventIds.next([awayTeam, homeTeam]),
        homeTeam,
        awayTeam,
        homeName,
        awayName,
        startTime: reportedStartTime(book, serial, plan.startTime),
        flipped,
        closed: false,
        behindMargin: 0,
        behindTotal: 0,
        quotes: [] as Quote[],
        selectionIds: rt.selectionIds,
      };
      listing.quotes = buildQuotes(listing, () => ++this.uid);
      for (const q of listing.quotes) this.reprice(q, now, out);
      ev.listings.push(listing);
      this.byBookEventId.set(`${book.id}\u0000${listing.bookEventId}`, ev);
    }
    this.active.push(ev);
    this.poolsDirty = true;
    if (ev.status === 'live') this.play.start(ev, now);
  }

  /** Game state records (score, period, clock, status) produced since the last call. */
  takeGameStates(): RawGameState[] {
    return this.play.take();
  }

  private advance(now: number, out: RawTick[]): void {
    const dt = now - this.clockMs;
    this.clockMs = now;
    this.following.takeIn(now);
    this.corrections.takeIn(now, (q) => {
      if (q.pending) return;
      q.pending = true;
      this.due.push(now, { quote: q, restore: false });
    });
    const jumped: SimProp[] = [];
    let endedAny = false;
    for (const ev of this.active) {
      if (ev.status === 'upcoming' && ev.startTime <= now) {
        if (this.play.postponed(ev)) {
          this.endEvent(ev, now, out, 'postponed');
          endedAny = true;
          continue;
        }
        this.goLive(ev, now, out);
        this.play.start(ev, now);
      }
      if (ev.status === 'live' && ev.endTime <= now) {
        // The last of the play happens before the final whistle, so its report comes before the final one.
        this.play.step(ev, ev.endTime - 1);
        this.endEvent(ev, now, out, 'final');
        endedAny = true;
        continue;
      }
      jumped.length = 0;
      if (evolve(ev, dt, now, this.drawsFor(ev), jumped, this.liveRegime)) {
        if (ev.status === 'live') {
          this.lockAfterScore(ev, now, 0.5);
          this.queueRequotes(ev, now, null);
        } else this.following.step(ev, now);
      }
      if (ev.status === 'live' && this.scoreboard(ev, dt, now)) {
        this.lockAfterScore(ev, now);
        this.queueRequotes(ev, now, null);
      }
      for (const p of jumped) this.queueRequotes(ev, now, p);
    }
    if (endedAny) this.active = this.active.filter((e) => e.status === 'upcoming' || e.status === 'live');
    this.suspendSome(now, dt, out);
    for (const plan of this.planner.refill(now, this.active)) this.createEvent(plan, now, out);
  }

  private goLive(ev: SimEvent, now: number, out: RawTick[]): void {
    ev.status = 'live';
    atStart(ev);
    for (const l of ev.listings) {
      if (l.closed) continue;
      if (!l.book.hasLiveOdds) {
        for (const q of l.quotes) if (q.open || q.locked) pushTicks(q, now, 'pulled', q.open ? out : this.pulls);
        l.closed = true;
        continue;
      }
      for (const q of l.quotes) if (q.open) this.reprice(q, now, out);
    }
    this.poolsDirty = true;
  }

  /**
   * The game's clock runs and points are scored: the truth (expected final margin and total)
   * follows the scoreboard. Returns whether anything was scored (books then requote).
   */
  private scoreboard(ev: SimEvent, dt: number, now: number): boolean {
    const expected = this.play.expected(ev, dt);
    const scored = this.play.step(ev, now);
    const st = ev.state;
    const before = st.margin;
    const totalBefore = st.total;
    st.margin += (scored?.diff ?? 0) - expected.diff;
    const board = this.play.score(ev);
    st.total = Math.max(board ? board.home + board.away : 0, st.total + (scored?.points ?? 0) - expected.points);
    if (scored === null) return false;
    // Lagging books see the game as it was before the score.
    ev.jumpAt = now;
    ev.jumpMargin = st.margin - before;
    ev.jumpTotal = st.total - totalBefore;
    return true;
  }

  private endEvent(ev: SimEvent, now: number, out: RawTick[], status: EventStatus): void {
    for (const l of ev.listings) {
      if (l.closed) continue;
      for (const q of l.quotes) if (q.open || q.locked) pushTicks(q, now, 'pulled', q.open ? out : this.pulls);
      l.closed = true;
    }
    this.play.finish(ev, status, now);
    const score = status === 'final' ? this.play.lastFinal : null;
    if (score && score.home !== score.away) {
      this.futuresModel.result(ev.league, score.home > score.away ? ev.home : ev.away, score.home > score.away ? ev.away : ev.home);
    }
    ev.status = status;
    this.planner.release(ev);
    this.ended.push(ev);
    if (this.ended.length > ENDED_KEPT) {
      const old = this.ended.shift();
      for (const l of old?.listings ?? []) this.byBookEventId.delete(`${l.book.id}\u0000${l.bookEventId}`);
    }
    this.poolsDirty = true;
  }

  /**
   * A score (or, at `share` of the rate, other news in play): books that lock their markets of
   * the game on a score (most soft books, most of the time) take them off until they have
   * repriced, instead of showing the old prices meanwhile. Chosen by hash of book, game and time,
   * so it costs no randomness; without it, live arbitrage and +EV were several times the
   * recordings' (docs/simulator.md).
   */
  private lockAfterScore(ev: SimEvent, now: number, share = 1): void {
    for (const l of ev.listings) {
      if (l.closed || l.book.suspendsOnScore <= 0) continue;
      if (hash2(l.book.index * 7919 + ev.serial, Math.floor(now / 1000)) >= share * l.book.suspendsOnScore * 4294967296) continue;
      const at = now + l.book.lagMs * this.world.range(1, 1.4);
      for (const q of l.quotes) {
        if (!q.open || q.pending || q.prop !== null) continue;
        q.locked = true;
        // Outside the step's budget, like pulls: the sharp books' repricing after the score must not wait behind them.
        pushTicks(q, now, 'locked', this.pulls);
        q.open = false;
        q.pending = true;
        this.due.push(at, { quote: q, restore: true });
      }
    }
  }

  /** The stream a game's truth and its books' lags after news are drawn from: its own before the start, the world's in play. */
  private drawsFor(ev: SimEvent): Prng {
    return ev.status === 'live' ? this.world : this.pregame;
  }

  /** After news, each book requotes once its lag has passed: sharps within a second or two, soft books later. */
  private queueRequotes(ev: SimEvent, now: number, prop: SimProp | null): void {
    const rng = this.drawsFor(ev);
    for (const l of ev.listings) {
      if (l.closed) continue;
      this.queueListing(l, now + lagOf(l.book, ev.status === 'live') * rng.range(1, 1.4), prop);
    }
  }

  /** Queues a requote at `at` of the listing's open quotes of the game (or of one player's prop). */
  private queueListing(l: Listing, at: number, prop: SimProp | null): void {
    for (const q of l.quotes) {
      if (q.pending || !q.open || q.prop !== prop) continue;
      q.pending = true;
      this.due.push(at, { quote: q, restore: false });
    }
  }

  private suspendSome(now: number, dt: number, out: RawTick[]): void {
    const n = this.activity.poisson((this.opts.suspensionsPerMinute * dt) / MINUTE);
    if (n === 0) return;
    this.rebuildPools();
    for (let i = 0; i < n; i++) {
      const q = this.allQuotes[this.activity.int(this.allQuotes.length)];
      if (q === undefined || !q.open || q.pending || q.listing.closed || this.isStale(q, now)) continue;
      // Most suspensions lock the market; one in five takes it down (chosen by quote, not drawn,
      // so the rest of the board moves the same either way).
      q.locked = q.uid % 5 !== 0;
      pushTicks(q, now, q.locked ? 'locked' : 'pulled', out);
      q.open = false;
      q.pending = true;
      this.due.push(now + this.activity.range(20_000, 240_000), { quote: q, restore: true });
    }
  }

  private processDue(now: number, out: RawTick[], limit: number): void {
    while (out.length < limit && this.due.peekTime() <= now) {
      const d = this.due.pop();
      if (d === undefined) return;
      const q = d.quote;
      q.pending = false;
      if (q.listing.closed) continue;
      if (d.restore || (q.open && !this.isStale(q, now))) this.reprice(q, now, out, this.pulls);
    }
  }

  /**
   * The steady churn: each book stands behind its prices again on its own cadence (quicker in
   * play), repricing them if the game moved meanwhile; most come out unchanged and go out as
   * confirmations. Within the step's budget: when the budget is short, confirmations wait their
   * turn in time order, those of games in play first. The books confirm every price about once a
   * minute, as the recorded ones do, which on the whole board takes about 750 ticks a second: at
   * 200 (`make run`'s rate before stop 50) the pre-match confirmations queue up, and without the
   * priority the in-play ones queued behind them, minutes apart (docs/simulator.md, "Stop 49").
   * A quote the book is sitting on (`isStale`) waits for its next turn. A quote waiting for its
   * requote after pre-game news (`pending`, its book's lag) is confirmed at the price it shows (in
   * play it only keeps its turn: after a score a book locks or requotes): a book that
   * has not caught up with the news still stands behind its prices on its cadence, as the recorded
   * books do (their prices are 25-38 s old at the median while they take a minute to an hour to
   * follow a move). Such quotes used to be skipped and their turn dropped: each aged by its book's
   * whole lag (40-300 s before the game) and was flagged stale with the very price the news had
   * made +EV, and one the book was sitting on when its requote came due was never confirmed again
   * (docs/simulator.md, "Stop 52").
   */
  private confirmDue(now: number, out: RawTick[], limit: number): void {
    for (const phase of ['live', 'prematch'] as const) {
      const heap = this.confirmations[phase].heap;
      while (out.length < limit && heap.peekTime() <= now) {
        const at = heap.peekTime();
        const q = heap.pop();
        if (q === undefined) break;
        if (q.confirmAt !== at || !q.open || q.listing.closed) continue;
        if (out.length + 2 * q.outcomes.length > limit) {
          heap.push(at, q);
          return;
        }
        // Sat on, or behind a score or other news in play (a book then locks or requotes within its
        // lag; it does not vouch for its old price): the quote keeps its turn and sends nothing.
        if (this.isStale(q, now) || (q.pending && q.listing.event.status === 'live')) this.scheduleConfirmation(q, now);
        else if (q.pending) this.standBehind(q, now, out);
        else this.reprice(q, now, out);
      }
    }
  }

  /**
   * What the budget leaves after the books' cadences (a feed run faster than the cadences need,
   * as the benchmarks do): quotes picked at random (live games and sharp books more often) are
   * repriced early, so the feed still produces the activity it was asked for.
   */
  private extraActivity(now: number, out: RawTick[], limit: number): void {
    if (out.length >= limit) return;
    this.rebuildPools();
    const all = this.allQuotes;
    if (all.length === 0) return;
    const live = this.liveQuotes;
    const sharp = this.sharpQuotes;
    const rng = this.activity;
    // Live games and sharp books get several times their share, within bounds, so that one live
    // game does not take the whole budget.
    const pLive = Math.min(0.4, (5 * live.length) / all.length);
    const pSharp = pLive + Math.min(0.15, (2 * sharp.length) / all.length);
    let attempts = 4 * (limit - out.length) + 16;
    while (out.length < limit && attempts-- > 0) {
      const r = rng.next();
      const pool = r < pLive ? live : r < pSharp ? sharp : all;
      const q = pool[rng.int(pool.length)];
      if (q === undefined || !q.open || q.pending) continue;
      if (out.length + 2 * q.outcomes.length > limit) return;
      if (this.isStale(q, now)) continue;
      this.reprice(q, now, out);
    }
  }

  /** Confirms a quote at the prices it shows, without repricing it, and books its next confirmation. */
  private standBehind(q: Quote, now: number, out: RawTick[]): void {
    q.lastTs = now;
    pushTicks(q, now, 'open', out);
    this.scheduleConfirmation(q, now);
  }

  /** Reprices (or confirms) a quote and books its next confirmation. */
  private reprice(q: Quote, now: number, out: RawTick[], pulls: RawTick[] = out): void {
    requote(q, now, this.activity, out, pulls);
    this.scheduleConfirmation(q, now);
    this.corrections.watch(q, now);
  }

  /**
   * The opening board as it stands at a book that has been running, not one that has just
   * started: the simulator has no past, so each quote is placed at a random moment of its book's
   * cadence (for the game's phase) instead. The interval the moment falls in is drawn
   * length-biased, as a moment picked at random lands in a long interval more often than in a
   * short one; the quote was last confirmed a uniform share of it ago, and is next confirmed when
   * the interval ends. A quote the book is sitting on (`isStale`) was last confirmed that share of
   * an interval before its spell began, and a game in play was repriced by every book at its
   * start (`goLive`), so no in-play quote is older than that. When every quote carried the opening
   * time, the prices a book sat on from the start read exactly as old as the board: 31 of the 49
   * stale rows among the first 200 of `/opportunities/ev` after 5 minutes of `make run` were 299
   * s old (docs/simulator.md, "Stop 51").
   */
  private openAsRunning(q: Quote, now: number): void {
    const ev = q.listing.event;
    const phase: GamePhase = ev.status === 'live' ? 'live' : 'prematch';
    // Length-biased jitter: density proportional to the length over [min, max], by its inverse CDF.
    const share = Math.sqrt(JITTER_MIN ** 2 + this.activity.next() * (JITTER_MAX ** 2 - JITTER_MIN ** 2));
    const interval = q.listing.book.confirmMs[phase] * share;
    const sinceLast = this.activity.next() * interval;
    this.scheduleConfirmation(q, now - sinceLast, share);
    // Whole milliseconds, as every other time on a tick.
    const last = Math.floor(this.sittingSince(q, now) - sinceLast);
    q.lastTs = ev.status === 'live' ? Math.max(last, ev.startTime) : last;
    // What the book last set is as old as its last confirmation, as far as anything before the opening is known.
    for (const o of q.outcomes) o.changedAt = q.lastTs;
  }

  /** Books the quote's next confirmation, after `share` of the book's cadence (with its jitter by default). */
  private scheduleConfirmation(q: Quote, now: number, share = this.activity.range(JITTER_MIN, JITTER_MAX)): void {
    const book = q.listing.book;
    const phase: GamePhase = q.listing.event.status === 'live' ? 'live' : 'prematch';
    q.confirmAt = now + book.confirmMs[phase] * share;
    const queue = this.confirmations[phase];
    queue.heap.push(q.confirmAt, q);
    // A quote repriced before its confirmation came due leaves that entry behind, to be skipped
    // when its time comes, up to a cadence later: at 2,000 ticks/s, with cadences of 5-17 minutes,
    // the heap held 12 entries per open quote (278,000 for 22,345) after filling for 14 minutes, a
    // slow climb in the soak's server. Dropping them once the heap has doubled keeps it under
    // twice the live entries for a pass over it now and then.
    if (queue.heap.size >= queue.compactAt) {
      queue.heap.retain((at, quote) => quote.confirmAt === at);
      queue.compactAt = Math.max(MIN_CONFIRMATIONS_COMPACTED, 2 * queue.heap.size);
    }
  }

  /** Entries waiting in the confirmation schedule, skipped ones included (tests). */
  get scheduledConfirmations(): number {
    return this.confirmations.live.heap.size + this.confirmations.prematch.heap.size;
  }

  private rebuildPools(): void {
    if (!this.poolsDirty) return;
    this.poolsDirty = false;
    const all: Quote[] = [];
    const live: Quote[] = [];
    const sharp: Quote[] = [];
    for (const ev of this.active) {
      for (const l of ev.listings) {
        if (l.closed) continue;
        for (const q of l.quotes) {
          all.push(q);
          if (ev.status === 'live') live.push(q);
          if (l.book.isSharp) sharp.push(q);
        }
      }
    }
    this.allQuotes = all;
    this.liveQuotes = live;
    this.sharpQuotes = sharp;
  }

  /**
   * Whether the book is sitting on this quote: time is cut into windows per book and phase of the
   * game, and in a `staleShare` of them (chosen by hash, so it costs no randomness) the quote is
   * not touched.
   */
  private isStale(q: Quote, now: number): boolean {
    const book = q.listing.book;
    const gamePhase = q.listing.event.status === 'live' ? 'live' : 'prematch';
    const share = book.staleShare[gamePhase];
    if (share <= 0) return false;
    const w = book.staleWindowMs[gamePhase];
    const window = Math.floor((now + windowOffset(q, w)) / w);
    return hash2(q.uid ^ this.staleSalt, window) < share * 4294967296;
  }

  /**
   * When the spell the book is sitting on this quote in began (the start of the first of the
   * sitting windows in a row that reach `now`), or `now` when it is not sitting on it.
   */
  private sittingSince(q: Quote, now: number): number {
    if (!this.isStale(q, now)) return now;
    const w = q.listing.book.staleWindowMs[q.listing.event.status === 'live' ? 'live' : 'prematch'];
    const offset = windowOffset(q, w);
    let start = Math.floor((now + offset) / w) * w - offset;
    // Windows in a row are rare (the share is at most a tenth); the bound only guards a share of 1.
    for (let i = 0; i < MAX_SITTING_WINDOWS && this.isStale(q, start - 1); i++) start -= w;
    return start;
  }
}

/** Where the quote's sitting windows of width `w` begin, ms: each quote its own, so that books do not go quiet all at once. */
function windowOffset(q: Quote, w: number): number {
  return (Math.imul(q.uid, 0x9e3779b1) >>> 0) % w;
}
