import type { FutureKind, LeagueDef, RawFutures, TeamDef } from '../../../schemas/index.js';
import { normalCdf } from '../../odds-math/index.js';
import type { BookProfile } from './books.js';
import { spellTeam } from './books.js';
import { type Prng, hashString, unitHash } from './prng.js';
import { logistic, probabilityToAmerican } from './pricing.js';
import { rosterProps } from './players.js';
import { inSeason } from './schedule.js';

/** Sports whose leagues have seasons with a champion (individual sports have no outrights here). */
const TEAM_SPORTS = new Set(['basketball', 'football', 'hockey', 'baseball', 'soccer']);
/** Regular-season games per team, for season-win totals and playoff odds (US leagues). */
const SEASON_GAMES: Readonly<Record<string, number>> = { nba: 82, nfl: 17, nhl: 82, mlb: 162, wnba: 44 };
/** Share of a league's teams that reach the playoffs. */
const PLAYOFF_SHARE: Readonly<Record<string, number>> = { nba: 20 / 30, nfl: 14 / 32, nhl: 16 / 32, mlb: 12 / 30, wnba: 8 / 13 };
/** Concentration of the title race: favourite about 15 % in a 30-team league. */
const TITLE_SCALE = 1.1;
const MVP_SCALE = 1.6;
/** Outcomes a title market lists at most: big college fields list their best teams only. */
const MAX_FIELD = 40;
/** Longest outright price books post. */
const MAX_FUTURES_AMERICAN = 100_000;
/** Rating drift per hour (news, injuries, form): a random walk. */
const DRIFT_PER_HOUR = 0.02;
const HOUR = 3_600_000;

interface Outcome {
  /** Canonical name (a team's catalog name is what the book then spells its way). */
  name: string;
  team: TeamDef | null;
  line: number | null;
}

interface SimFuture {
  id: string;
  league: LeagueDef;
  kind: FutureKind;
  season: string;
  subject: TeamDef | null;
  settlesAt: number;
  outcomes: Outcome[];
  /** Fair probabilities of the outcomes from the current ratings. */
  fair: () => number[];
  /** Each book's posted prices and when it posted them. */
  posted: Map<string, { prices: number[]; ts: number }>;
}

/** Outright margin of a book: soft books 20-40 % overround on a whole field, sharp books tighter; two-way season markets far less. */
export function futuresOverround(book: BookProfile, outcomes: number): number {
  if (outcomes <= 2) return Math.min(0.11, book.overround * 1.6);
  // Rounding in the book's favour adds a point or two on top.
  return book.isSharp ? Math.min(0.15, Math.max(0.08, book.overround * 5)) : Math.min(0.37, Math.max(0.2, book.overround * 5));
}

/**
 * Prices with the margin spread the way books do on outrights: p_i^k with k < 1 chosen so the
 * implied probabilities sum to 1 + overround, so longshots carry more of it (favourite-longshot
 * bias). Two-way markets are spread multiplicatively.
 */
export function marginedProbabilities(fair: readonly number[], overround: number): number[] {
  const target = 1 + overround;
  if (fair.length <= 2) return fair.map((p) => p * target);
  let lo = 0.05;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const k = (lo + hi) / 2;
    const sum = fair.reduce((s, p) => s + p ** k, 0);
    if (sum > target) lo = k;
    else hi = k;
  }
  const k = (lo + hi) / 2;
  return fair.map((p) => p ** k);
}

function softmax(xs: readonly number[], scale: number): number[] {
  const max = Math.max(...xs);
  const e = xs.map((x) => Math.exp(scale * (x - max)));
  const sum = e.reduce((s, v) => s + v, 0);
  return e.map((v) => v / sum);
}

/** Season label and settlement (the last day of the season's final month) for a league at `now`. */
export function seasonOf(league: LeagueDef, now: number): { label: string; settlesAt: number } {
  const d = new Date(now);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  const { from, to } = league.season;
  if (from <= to) return { label: String(year), settlesAt: Date.UTC(year, to, 1) - 1 };
  const start = month >= from ? year : year - 1;
  return { label: `${start}-${String((start + 1) % 100).padStart(2, '0')}`, settlesAt: Date.UTC(start + 1, to, 1) - 1 };
}

/**
 * Outright markets of the in-season team leagues, at every book: the championship (one outcome
 * per team), an MVP race (leagues with player props), and per team its season-win total and
 * whether it makes the playoffs (US leagues). Team ratings drift over time and move with every
 * final score (the winner's title odds shorten), and each book prices the fair line with its own
 * outright margin and opinion; sharp books requote every round, soft books lag.
 */
export class FuturesModel {
  private readonly ratings = new Map<string, number>();
  private readonly futures: SimFuture[] = [];
  private lastDrift: number;
  /** The last results the ratings took in (catalog team names), oldest first. */
  readonly results: { league: string; winner: string; loser: string }[] = [];

  constructor(
    private readonly rng: Prng,
    leagues: readonly LeagueDef[],
    teams: readonly TeamDef[],
    private readonly books: readonly BookProfile[],
    now: number,
  ) {
    this.lastDrift = now;
    const month = new Date(now).getUTCMonth() + 1;
    for (const league of leagues) {
      if (!TEAM_SPORTS.has(league.sport) || !inSeason(league, month)) continue;
      const members = teams.filter((t) => t.leagues.includes(league.id));
      if (members.length < 4) continue;
      for (const t of members) this.ratings.set(this.key(league, t), rng.normal());
      this.createMarkets(league, members, now);
    }
  }

  /** Markets on the board (for tests and stats). */
  get marketCount(): number {
    return this.futures.length;
  }

  /**
   * A final score: the winner's rating rises and the loser's falls by a step that shrinks with
   * the season's length (one NFL game matters more than one MLB game).
   */
  result(league: LeagueDef, winner: TeamDef, loser: TeamDef): void {
    this.results.push({ league: league.id, winner: winner.name, loser: loser.name });
    if (this.results.length > 2_000) this.results.shift();
    const w = this.key(league, winner);
    const l = this.key(league, loser);
    if (!this.ratings.has(w) || !this.ratings.has(l)) return;
    const step = 1.2 / Math.sqrt(SEASON_GAMES[league.id] ?? 38);
    this.ratings.set(w, (this.ratings.get(w) ?? 0) + step);
    this.ratings.set(l, (this.ratings.get(l) ?? 0) - step);
  }

  /**
   * One round at `now`: ratings drift, and every book reprices the markets it updates this round
   * (sharps all, soft books about a third). Boards whose prices changed go out, all of them on
   * the first round.
   */
  round(now: number): RawFutures[] {
    const hours = Math.max(0, now - this.lastDrift) / HOUR;
    this.lastDrift = Math.max(now, this.lastDrift);
    if (hours > 0) {
      const sd = DRIFT_PER_HOUR * Math.sqrt(hours);
      for (const [k, r] of this.ratings) this.ratings.set(k, r + sd * this.rng.normal());
    }
    const out: RawFutures[] = [];
    for (const f of this.futures) {
      const fair = f.fair();
      for (const book of this.books) {
        const posted = f.posted.get(book.id);
        // Sharps requote about every other round, soft books about one in six: they lag news.
        if (posted && this.rng.next() > (book.isSharp ? 0.5 : 0.16)) continue;
        const prices = this.price(f, fair, book);
        if (posted && posted.prices.every((p, i) => p === prices[i])) continue;
        f.posted.set(book.id, { prices, ts: now });
        out.push(this.board(f, book, prices, now));
      }
    }
    return out;
  }

  private key(league: LeagueDef, team: TeamDef): string {
    return `${league.id}/${team.id}`;
  }

  private rating(league: LeagueDef, team: TeamDef): number {
    return this.ratings.get(this.key(league, team)) ?? 0;
  }

  private price(f: SimFuture, fair: readonly number[], book: BookProfile): number[] {
    // The book's own view: a persistent tilt per outcome, wider at soft books.
    const spread = book.isSharp ? 0.03 : 0.12;
    const tilted = fair.map((p, i) => logistic(Math.log(p / (1 - p)) + spread * gauss(`${f.id}/${book.id}/${i}`)));
    const sum = tilted.reduce((s, p) => s + p, 0);
    const normalized = tilted.map((p) => p / sum);
    return marginedProbabilities(normalized, futuresOverround(book, fair.length)).map((q) => futuresAmerican(q, book.cents));
  }

  private board(f: SimFuture, book: BookProfile, prices: readonly number[], now: number): RawFutures {
    const spell = (t: TeamDef): string => spellTeam(book, t);
    const subjectName = f.subject ? spell(f.subject) : null;
    return {
      kind: 'futures',
      book: book.id,
      bookMarketId: `${book.id.slice(0, 3)}-${hashString(`${book.id}/${f.id}`).toString(36)}`,
      sport: f.league.sport,
      league: f.league.id,
      market: f.kind,
      season: f.season,
      subject: subjectName,
      title: `${subjectName ?? f.league.name} ${f.kind.replace('_', ' ')} ${f.season}`,
      settlesAt: f.settlesAt,
      ts: now,
      selections: f.outcomes.map((o, i) => ({ name: o.team ? spell(o.team) : o.name, line: o.line, priceAmerican: prices[i] ?? 10_000 })),
    };
  }

  private add(f: Omit<SimFuture, 'posted'>): void {
    this.futures.push({ ...f, posted: new Map() });
  }

  private createMarkets(league: LeagueDef, members: readonly TeamDef[], now: number): void {
    const { label, settlesAt } = seasonOf(league, now);
    const base = { league, season: label, settlesAt };
    const field = [...members].sort((a, b) => this.rating(league, b) - this.rating(league, a)).slice(0, MAX_FIELD);
    this.add({
      ...base,
      id: `${league.id}/championship`,
      kind: 'championship',
      subject: null,
      outcomes: field.map((t) => ({ name: t.name, team: t, line: null })),
      fair: () =>
        softmax(
          field.map((t) => this.rating(league, t)),
          TITLE_SCALE,
        ),
    });
    if (league.propStats.length > 0) {
      // The MVP race: each team's lead player; his chance follows his team's and his own form.
      const seen = new Set<string>();
      const players: { name: string; team: TeamDef; own: number }[] = [];
      for (const t of members) {
        const name = rosterProps(t, league)[0]?.player;
        if (name === undefined || seen.has(name)) continue;
        seen.add(name);
        players.push({ name, team: t, own: gauss(`${league.id}/mvp/${name}`) });
      }
      if (players.length >= 4) {
        this.add({
          ...base,
          id: `${league.id}/mvp`,
          kind: 'mvp',
          subject: null,
          outcomes: players.map((p) => ({ name: p.name, team: null, line: null })),
          fair: () =>
            softmax(
              players.map((p) => 0.6 * this.rating(league, p.team) + p.own),
              MVP_SCALE,
            ),
        });
      }
    }
    const games = SEASON_GAMES[league.id];
    const share = PLAYOFF_SHARE[league.id];
    if (games === undefined || share === undefined) return;
    const winShare = (t: TeamDef): number => logistic(0.6 * this.rating(league, t));
    const sigma = Math.sqrt(games * 0.25) + 0.04 * games;
    const sorted = [...members].sort((a, b) => this.rating(league, b) - this.rating(league, a));
    const cutoffTeam = sorted[Math.max(0, Math.round(share * members.length) - 1)];
    const cutoff = cutoffTeam ? this.rating(league, cutoffTeam) - 0.05 : 0;
    for (const t of members) {
      const line = Math.floor(games * winShare(t)) + 0.5;
      this.add({
        ...base,
        id: `${league.id}/wins/${t.id}`,
        kind: 'season_wins',
        subject: t,
        outcomes: [
          { name: 'Over', team: null, line },
          { name: 'Under', team: null, line },
        ],
        fair: () => {
          const over = clampP(1 - normalCdf((line - games * winShare(t)) / sigma));
          return [over, 1 - over];
        },
      });
      this.add({
        ...base,
        id: `${league.id}/playoffs/${t.id}`,
        kind: 'make_playoffs',
        subject: t,
        outcomes: [
          { name: 'Yes', team: null, line: null },
          { name: 'No', team: null, line: null },
        ],
        fair: () => {
          const yes = clampP(normalCdf((this.rating(league, t) - cutoff) / 0.6));
          return [yes, 1 - yes];
        },
      });
    }
  }
}

/** American odds as books post outrights: the game-odds increments, then 500s and 2500s beyond +10000. */
function futuresAmerican(q: number, cents: number): number {
  if (q >= 100 / 10_100) return probabilityToAmerican(q, cents);
  const raw = (100 * (1 - q)) / q;
  const step = raw < 25_000 ? 500 : 2_500;
  return Math.min(MAX_FUTURES_AMERICAN, Math.max(10_000, Math.floor(raw / step) * step));
}

function clampP(p: number): number {
  return Math.min(0.97, Math.max(0.03, p));
}

/** A standard normal draw fixed by a key (a book's lasting opinion of one outcome). */
function gauss(key: string): number {
  const u1 = Math.max(1e-12, unitHash(key, 1));
  const u2 = unitHash(key, 2);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
