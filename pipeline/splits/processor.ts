import { SPLIT_MARKETS, SPLIT_ODDS_MARKET, SPLITS_BOOKS, splitsKey } from '../../schemas/index.js';
import type {
  CanonicalEvent,
  MarketId,
  OddsTick,
  SplitMarket,
  SplitSideRecord,
  SplitSignals,
  SplitsObservation,
  SplitsSnapshot,
} from '../../schemas/index.js';
import { divergence, reverseLineMovement } from './signals.js';

const SPLIT_OF_ODDS = new Map<MarketId, SplitMarket>(SPLIT_MARKETS.map((m) => [SPLIT_ODDS_MARKET[m], m]));
const BOOKS: ReadonlySet<string> = new Set(SPLITS_BOOKS);

/** A game's state is dropped this long after its last tick or snapshot, like the history. */
const RETAIN_MS = 48 * 3_600_000;
const EVICT_EVERY = 20_000;

interface Quote {
  line: number | null;
  price: number;
}

interface EventState {
  /** Time of the last tick or snapshot seen for the game (epoch ms). */
  touchedAt: number;
  /** `${book}|${market}|${side}` -> the book's current line and price. */
  quotes: Map<string, Quote>;
  /** `${book}|${market}` -> the first snapshot that had the book's lines: where RLM measures from. */
  opening: Map<string, SplitSideRecord[]>;
}

/**
 * Joins each splits observation to its canonical event and to the line and price the book had
 * on each side at that moment, and flags the sharp-money signals. Pure and deterministic: it
 * learns lines from the normalized ticks it is shown (`observeTick`), in the order the feed
 * emitted them, so "the line at that moment" is the last price the book published before the
 * splits, whatever the speed of the other stages.
 */
export class SplitsProcessor {
  private readonly events = new Map<string, EventState>();
  private calls = 0;

  get eventCount(): number {
    return this.events.size;
  }

  /** Keeps the current line of the splits books' main markets; any other tick is ignored at once. */
  observeTick(t: OddsTick): void {
    if (!BOOKS.has(t.book) || t.participant !== null) return;
    const market = SPLIT_OF_ODDS.get(t.market);
    if (market === undefined) return;
    const side = t.selection;
    if (side !== 'home' && side !== 'away' && side !== 'over' && side !== 'under') return;
    // Feeds without splits still send these books' ticks: the game's state must age out on ticks alone.
    if (++this.calls % EVICT_EVERY === 0) this.evict(t.ts);
    const state = this.events.get(t.eventId);
    const key = `${t.book}|${market}|${side}`;
    if (t.status === 'open' && t.priceAmerican !== null) {
      const s = state ?? this.state(t.eventId, t.ts);
      s.touchedAt = Math.max(s.touchedAt, t.ts);
      s.quotes.set(key, { line: t.line, price: t.priceAmerican });
      return;
    }
    // A suspension with a price locks the line: it stands, frozen, as on the board.
    if (t.priceAmerican !== null) return;
    // A pull removes that line only: a move pulls the old line after opening the new one.
    const q = state?.quotes.get(key);
    if (q && q.line === t.line) state?.quotes.delete(key);
  }

  handle(obs: SplitsObservation, event: CanonicalEvent, now: number): SplitsSnapshot {
    if (++this.calls % EVICT_EVERY === 0) this.evict(now);
    const state = this.state(event.id, now);
    state.touchedAt = Math.max(state.touchedAt, now, obs.ts);
    const sides: SplitSideRecord[] = obs.sides.map((s) => {
      const q = state.quotes.get(`${obs.book}|${s.market}|${s.side}`);
      return { ...s, line: q?.line ?? null, priceAmerican: q?.price ?? null };
    });
    const signals: SplitSignals = {};
    for (const market of SPLIT_MARKETS) {
      const current = sides.filter((s) => s.market === market);
      if (current.length === 0) continue;
      const openKey = `${obs.book}|${market}`;
      let open = state.opening.get(openKey);
      if (!open && current.every((s) => (market === 'moneyline' ? s.priceAmerican !== null : s.line !== null))) {
        open = current;
        state.opening.set(openKey, open);
      }
      signals[market] = { divergence: divergence(current), rlm: open ? reverseLineMovement(market, open, current) : null };
    }
    return {
      key: splitsKey(event.id, obs.book),
      eventId: event.id,
      sport: event.sport,
      league: event.league,
      homeTeamId: event.homeTeamId,
      awayTeamId: event.awayTeamId,
      startTime: event.startTime,
      isLive: event.isLive,
      book: obs.book,
      ts: obs.ts,
      sides,
      signals,
    };
  }

  private state(eventId: string, touchedAt: number): EventState {
    let s = this.events.get(eventId);
    if (!s) {
      s = { touchedAt, quotes: new Map(), opening: new Map() };
      this.events.set(eventId, s);
    }
    return s;
  }

  private evict(now: number): void {
    for (const [id, s] of this.events) if (s.touchedAt + RETAIN_MS < now) this.events.delete(id);
  }
}
