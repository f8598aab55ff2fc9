import { SPLIT_MARKETS, isLineMoveKind } from '../../schemas/index.js';
import type {
  AlertFilters,
  AlertRuleRecord,
  CanonicalEvent,
  OddsChange,
  OddsRow,
  SplitMarket,
  SplitSideRecord,
  SplitsSnapshot,
} from '../../schemas/index.js';
import { reverseLineMovement } from '../../pipeline/splits/index.js';
import type { AlertRuleBook } from '../accounts/index.js';
import { isoTime } from '../contract/index.js';
import { teamName } from '../contract/index.js';
import { presentSplits } from '../contract/index.js';
import { lineMoveQuery, splitsMatch } from '../queries/index.js';
import type { KeyNumberMarket, LineMoveQuery, RlmQuery } from '../queries/index.js';
import type { BoardListener, LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import { bookMainLine, eventMatches } from '../views/index.js';
import type { SplitsBoard } from '../views/index.js';
import { alertId } from './alert.js';
import type { Alert } from './alert.js';
import { KEY_NUMBER_ODDS_MARKET, keyNumbersCrossed, ruleKeyNumbers } from './line-move.js';

const KEY_NUMBER_MARKETS: readonly KeyNumberMarket[] = ['spread', 'total'];
/** Opens kept per splits record (three markets) before the ones of records gone are looked for. */
const OPENS_SLACK = 6;

interface LineWatch {
  rule: AlertRuleRecord;
  query: LineMoveQuery;
  sequence: number;
  /** reverse_line_move: the `${splits key}|${market}` whose signal this rule already raised and that still holds. */
  held: Set<string>;
}

/** A book's main line of one market as last seen, and when its rows there last changed. */
interface SeenLine {
  line: number;
  at: number;
}

export interface LineMoveDetectorDeps {
  odds: LiveBoard;
  splits: SplitsBoard;
  rules: AlertRuleBook;
  catalog: Catalog;
  /** The data clock. */
  now: () => number;
  onAlert: (rule: AlertRuleRecord, alert: Alert) => void;
  onBadRule?: (rule: AlertRuleRecord, error: unknown) => void;
}

/**
 * Raises line-move alerts. `key_number`: every book's main spread and total of every event is
 * followed on the live board (while some rule needs them); a move that lands on, leaves or passes
 * one of a rule's key numbers raises an alert for each rule whose events, books and markets it
 * matches. `reverse_line_move`: each splits snapshot is measured against the first one this
 * replica saw of that event, book and market, by the splits' own signal function with the rule's
 * thresholds; an alert when the signal appears, again only after it went away. Events and splits
 * are matched by the functions `/odds` and `/splits` use. Work happens off the boards' call stacks.
 */
export class LineMoveDetector implements BoardListener {
  private readonly watches = new Map<string, LineWatch>();
  /** Event id -> `${book}|${market}` -> main line; kept only while a key_number rule exists. */
  private readonly lines = new Map<string, Map<string, SeenLine>>();
  /** `${splits key}|${market}` -> the first sides seen: where reverse line movement is measured from. */
  private readonly opens = new Map<string, SplitSideRecord[]>();
  private pendingEvents = new Set<string>();
  private pendingSplits = new Map<string, SplitsSnapshot>();
  private scheduled = false;
  private stopped = false;
  private readonly unfollow: (() => void)[] = [];
  private readonly firstSequence = Date.now() * 1000;

  constructor(private readonly deps: LineMoveDetectorDeps) {
    for (const s of deps.splits.latest()) this.notice(s);
    for (const rule of deps.rules.active()) this.watch(rule);
    this.unfollow.push(
      deps.rules.onChange((_before, after) => {
        this.watches.delete(after.id);
        if (after.active) this.watch(after);
        if (!this.followsLines()) this.lines.clear();
      }),
    );
    deps.odds.subscribe(this);
    this.unfollow.push(
      deps.splits.subscribe((s) => {
        this.pendingSplits.set(s.key, s);
        this.schedule();
      }),
    );
  }

  /** Rules of line-move kinds being watched. */
  get size(): number {
    return this.watches.size;
  }

  applyEvent(): void {
    // Lines move with rows; an event's own fields are read when its rows are.
  }

  applyChange(change: OddsChange): void {
    if (this.stopped || !this.followsLines()) return;
    this.pendingEvents.add(change.eventId);
    this.schedule();
  }

  /** Checks what changed since the last flush; also callable directly (tests). */
  flush(): void {
    this.scheduled = false;
    const events = this.pendingEvents;
    const snapshots = this.pendingSplits;
    this.pendingEvents = new Set();
    this.pendingSplits = new Map();
    for (const eventId of events) this.lineMoves(eventId);
    for (const s of snapshots.values()) this.splitsMoves(s);
    if (snapshots.size > 0 && this.opens.size > OPENS_SLACK * (this.deps.splits.size + 1)) this.pruneOpens();
  }

  /** Opens of snapshots the splits board no longer holds (past its retention) go. */
  private pruneOpens(): void {
    const held = new Set(this.deps.splits.latest().map((s) => s.key));
    for (const key of this.opens.keys()) if (!held.has(key.slice(0, key.lastIndexOf('|')))) this.opens.delete(key);
  }

  stop(): void {
    this.stopped = true;
    for (const f of this.unfollow) f();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private followsLines(): boolean {
    for (const w of this.watches.values()) if (w.query.kind === 'key_number') return true;
    return false;
  }

  private watch(rule: AlertRuleRecord): void {
    if (!isLineMoveKind(rule.kind)) return;
    let query: LineMoveQuery;
    try {
      query = lineMoveQuery(rule.kind, JSON.parse(rule.filtersJson) as AlertFilters, this.deps.catalog, rule.tier);
    } catch (e) {
      this.deps.onBadRule?.(rule, e);
      return;
    }
    // The first rule to need lines starts from the board as it is: moves before it are not news.
    if (query.kind === 'key_number' && !this.followsLines()) for (const e of this.deps.odds.allEvents()) this.readLines(e.id);
    this.watches.set(rule.id, { rule, query, sequence: this.firstSequence, held: new Set() });
  }

  /** The event's main lines per book and market now; the moves since the last look, as [key, before, after]. */
  private readLines(eventId: string): { book: string; market: KeyNumberMarket; before: SeenLine; after: SeenLine }[] {
    const rows = this.deps.odds.rowsOf(eventId);
    if (rows.length === 0) {
      this.lines.delete(eventId);
      return [];
    }
    const byBook = new Map<string, OddsRow[]>();
    for (const r of rows) {
      if (r.market !== 'point_spread' && r.market !== 'total_points') continue;
      let list = byBook.get(r.book);
      if (!list) byBook.set(r.book, (list = []));
      list.push(r);
    }
    let seen = this.lines.get(eventId);
    if (!seen) this.lines.set(eventId, (seen = new Map()));
    const moves: { book: string; market: KeyNumberMarket; before: SeenLine; after: SeenLine }[] = [];
    for (const [book, bookRows] of byBook) {
      for (const market of KEY_NUMBER_MARKETS) {
        const line = bookMainLine(bookRows, KEY_NUMBER_ODDS_MARKET[market]);
        if (line === null) continue;
        const key = `${book}|${market}`;
        const before = seen.get(key);
        if (before?.line === line) continue;
        // When the book's rows at the new number changed: the same on every replica, so the alert id is too.
        const odds = KEY_NUMBER_ODDS_MARKET[market];
        const at = Math.max(
          ...bookRows
            .filter((r) => r.market === odds && r.line !== null && Math.abs(r.line) === Math.abs(line))
            .map((r) => r.oddsChangedAt),
        );
        const after = { line, at };
        seen.set(key, after);
        if (before) moves.push({ book, market, before, after });
      }
    }
    return moves;
  }

  private lineMoves(eventId: string): void {
    const moves = this.readLines(eventId);
    const event = this.deps.odds.event(eventId);
    if (moves.length === 0 || !event) return;
    for (const w of this.watches.values()) {
      const q = w.query;
      if (q.kind !== 'key_number' || !eventMatches(event, q.event, this.deps.catalog)) continue;
      for (const m of moves) {
        if (!q.books.has(m.book) || !q.markets.has(m.market)) continue;
        const crossed = keyNumbersCrossed(m.before.line, m.after.line, ruleKeyNumbers(q, event.league, m.market), m.market);
        if (crossed.length === 0) continue;
        this.raise(w, `${eventId}|${m.book}|${m.market}|${m.before.line}>${m.after.line}@${m.after.at}`, {
          ...eventFields(this.deps.catalog, event),
          sportsbook: m.book,
          market: m.market,
          from_line: m.before.line,
          to_line: m.after.line,
          key_numbers: crossed,
          moved_at: isoTime(m.after.at),
        });
      }
    }
  }

  /** Remembers the first sides of each market of a snapshot; answers the opens it already had (a market new here has none yet). */
  private notice(s: SplitsSnapshot): Map<SplitMarket, SplitSideRecord[]> {
    const opens = new Map<SplitMarket, SplitSideRecord[]>();
    for (const market of SPLIT_MARKETS) {
      const sides = s.sides.filter((x) => x.market === market);
      if (sides.length !== 2) continue;
      const key = `${s.key}|${market}`;
      const open = this.opens.get(key);
      if (open) opens.set(market, open);
      else this.opens.set(key, sides);
    }
    return opens;
  }

  private splitsMoves(s: SplitsSnapshot): void {
    const opens = this.notice(s);
    for (const w of this.watches.values()) {
      const q = w.query;
      if (q.kind !== 'reverse_line_move') continue;
      const event = splitsMatch(s, this.deps.odds, this.deps.catalog, q.splits);
      for (const market of SPLIT_MARKETS) {
        const key = `${s.key}|${market}`;
        const open = opens.get(market);
        const signal =
          event && open && (!q.splits.markets || q.splits.markets.has(market))
            ? reverseLineMovement(
                market,
                open,
                s.sides.filter((x) => x.market === market),
                q.thresholds,
              )
            : null;
        if (!signal || !event) {
          w.held.delete(key);
          continue;
        }
        if (w.held.has(key)) continue;
        w.held.add(key);
        this.raise(w, `${key}|rlm@${s.ts}`, rlmData(this.deps.catalog, s, event, market, q, signal));
      }
    }
  }

  private raise(w: LineWatch, subject: string, data: object): void {
    w.sequence++;
    this.deps.onAlert(w.rule, {
      id: alertId(w.rule.id, subject),
      ruleId: w.rule.id,
      accountId: w.rule.accountId,
      kind: w.rule.kind,
      sequence: w.sequence,
      raisedAt: this.deps.now(),
      data,
    });
  }
}

function eventFields(catalog: Catalog, e: CanonicalEvent): object {
  return {
    event_id: e.id,
    sport: e.sport,
    league: e.league,
    home_team: teamName(catalog, e.homeTeamId),
    away_team: teamName(catalog, e.awayTeamId),
    event_start_time: isoTime(e.startTime),
    is_live: e.isLive,
  };
}

function rlmData(
  catalog: Catalog,
  s: SplitsSnapshot,
  event: CanonicalEvent,
  market: SplitMarket,
  q: RlmQuery,
  signal: NonNullable<ReturnType<typeof reverseLineMovement>>,
): object {
  const showPrices = q.pricesOpen.has(s.book);
  return {
    ...presentSplits(catalog, s, event, showPrices),
    market,
    reverse_line_move: {
      public_by: q.thresholds.publicBy,
      public_side: signal.publicSide,
      public_pct: Math.round(signal.publicBetPct * 10_000) / 100,
      sharp_side: signal.sharpSide,
      open_line: showPrices ? signal.openLine : null,
      current_line: showPrices ? signal.currentLine : null,
      move: signal.move,
    },
  };
}
