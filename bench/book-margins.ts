import type { RawTick } from '../schemas/index.js';
import { americanToDecimal } from '../pipeline/odds-math/index.js';
import { percentile } from '../pipeline/freshness/index.js';
import { mapBookmakerKey, parseBookmaker, parseEvent, parseMarket, parseOutcome, toAmerican } from '../pipeline/feeds/theoddsapi/index.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import type { Phase } from './market-stats.js';
import { IN_PLAY_AFTER_MS } from './market-stats.js';

/**
 * Each book's margin before the game and in play: the median over its markets (one book's
 * moneyline, spread or total of one game at one sighting) of the overround, the implied
 * probabilities of the market's outcomes summed, less one, in percent, as the simulator's
 * `BookProfile.overround` is defined. In a recording every sighting counts (the in-play ones only
 * once the book has priced the game since `IN_PLAY_AFTER_MS` after the start: a book without live
 * odds leaves its pre-game prices standing a few minutes); in the simulator, every quote of its
 * board. What the simulated books' margins are set from (`pipeline/feeds/simulator/books.ts`;
 * docs/simulator.md, "Stop 56"); `bench/book-margins-table.ts` prints both side by side.
 */

/** Overrounds by book and phase, percent. */
export class BookMargins {
  private readonly by = new Map<string, Record<Phase, number[]>>();

  add(book: string, phase: Phase, implied: readonly number[]): void {
    let m = this.by.get(book);
    if (m === undefined) {
      m = { prematch: [], live: [] };
      this.by.set(book, m);
    }
    m[phase].push(100 * (implied.reduce((a, b) => a + b, 0) - 1));
  }

  /** Each book's median overround per phase (null when it has no market in the phase), and how many markets; the books in name order. */
  medians(): { book: string; prematch: number | null; live: number | null; markets: Record<Phase, number> }[] {
    return [...this.by.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([book, m]) => ({
        book,
        prematch: percentile(
          [...m.prematch].sort((a, b) => a - b),
          0.5,
        ),
        live: percentile(
          [...m.live].sort((a, b) => a - b),
          0.5,
        ),
        markets: { prematch: m.prematch.length, live: m.live.length },
      }));
  }
}

/** Every market of a recorded snapshot into `margins`, by the catalog's book ids. */
export function addRecorded(margins: BookMargins, snapshot: RecordedSnapshot): void {
  for (const raw of snapshot.data) {
    const event = parseEvent(raw);
    if (event === null) continue;
    const start = event.commenceTime;
    const phase: Phase = start > snapshot.timestamp ? 'prematch' : 'live';
    for (const rawBook of event.bookmakers) {
      const b = parseBookmaker(rawBook);
      if (b === null) continue;
      const book = mapBookmakerKey(b.key)?.book ?? b.key;
      for (const rawMarket of b.markets) {
        const m = parseMarket(rawMarket);
        if (m === null) continue;
        const updated = m.lastUpdate ?? b.lastUpdate;
        if (phase === 'live' && (updated === null || updated < start + IN_PLAY_AFTER_MS)) continue;
        const implied: number[] = [];
        for (const rawOutcome of m.outcomes) {
          const o = parseOutcome(rawOutcome);
          const american = o === null ? null : toAmerican(o.price);
          if (american !== null) implied.push(1 / americanToDecimal(american));
        }
        if (implied.length >= 2) margins.add(book, phase, implied);
      }
    }
  }
}

/** Every open market of a simulated board into `margins`: the ticks of one quote are one book's market of one game at one line. */
export function addSimulated(margins: BookMargins, board: readonly RawTick[]): void {
  const quotes = new Map<string, { book: string; phase: Phase; implied: number[] }>();
  for (const t of board) {
    if (t.priceAmerican === null || !['moneyline', 'point_spread', 'total_points'].includes(t.market)) continue;
    const line = t.line === null ? '' : t.market === 'point_spread' ? String(Math.abs(t.line)) : String(t.line);
    const key = `${t.book}\u0000${t.bookEventId}\u0000${t.market}\u0000${line}`;
    let q = quotes.get(key);
    if (q === undefined) {
      q = { book: t.book, phase: t.isLive ? 'live' : 'prematch', implied: [] };
      quotes.set(key, q);
    }
    q.implied.push(1 / americanToDecimal(t.priceAmerican));
  }
  for (const q of quotes.values()) if (q.implied.length >= 2) margins.add(q.book, q.phase, q.implied);
}
