import { useEffect, useState } from 'preact/hooks';
import type { Row } from './api.js';
import type { OddsRow, OpportunityRow, OpportunityRows } from './responses.js';

/** An odds row as /odds presents it, plus what the screen keeps about its life on the board. */
export type LiveOdds = OddsRow & {
  /** Changes seen since the snapshot: a new value remounts the cell, which flashes once. */
  _v: number;
  /** Suspended (is_active false) or pulled by the book (odds:removed): kept greyed with its last price until it returns. */
  _suspended: boolean;
};

export const LISTS = ['ev', 'arbitrage', 'middles', 'low_hold'] as const;
export type ListName = (typeof LISTS)[number];
const LIST_OF_PREFIX = new Map<string, ListName>([
  ['ev', 'ev'],
  ['arb', 'arbitrage'],
  ['middles', 'middles'],
  ['low_hold', 'low_hold'],
]);

/** `idle`: no stream opened yet (the screen shown needs none, or the tier has none of its lists). */
export type StreamState = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'resynced' | 'closed';

/** What the odds stream is filtered by (server-side: the snapshot carries only what the screen shows). */
export interface OddsSpec {
  sport?: string;
  league?: string;
  market?: string;
  event?: string;
}

/** The opportunity stream's thresholds (its defaults; the screen asks REST for anything looser). */
export const STREAM_THRESHOLDS = { ev: 2, arbitrage: 0.5 } as const;

/**
 * The stream's picture of the market, from up to two SSE connections: odds filtered by what the
 * screen shows (sport, league, market, or one event), and the opportunity lists the tier has. A
 * key of the free tier (one stream) opens only the odds one. Frames are applied in order as
 * docs/api.md says: a snapshot replaces, updates upsert by id, removals and expiries delete.
 * Listeners are told at most once per animation frame, however many frames arrived.
 */
export class LiveData {
  readonly odds = new Map<string, LiveOdds>();
  readonly lists: { [L in ListName]: Map<string, OpportunityRows[L]> } = {
    ev: new Map(),
    arbitrage: new Map(),
    middles: new Map(),
    low_hold: new Map(),
  };
  state: StreamState = 'idle';
  /** Time of the last frame (heartbeats included), for the status bar. */
  lastFrameAt = 0;
  snapshotComplete = false;
  version = 0;
  private spec: OddsSpec | null = null;
  private started = false;
  private withOpportunities = false;
  /** The opportunity stream also carries the phantom rows default lists leave out (`include=suspicious`). */
  private suspicious = false;
  private oddsSource: EventSource | null = null;
  private oppSource: EventSource | null = null;
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private resyncedTimer: ReturnType<typeof setTimeout> | null = null;

  /** `onRefused`: a stream was answered with an error (session gone, too many streams); the app checks the session. */
  constructor(private readonly onRefused: () => void) {}

  /** Starts the streams for a signed-in key. */
  start(withOpportunities: boolean): void {
    this.started = true;
    // The odds stream waits for the screen to say what it shows (setOddsSpec): never the whole board.
    this.withOpportunities = withOpportunities;
    if (this.spec) this.openOdds();
    if (withOpportunities) this.openOpportunities();
  }

  /** Asks the opportunity stream for the suspicious rows too (or no longer); a change reopens it, with its snapshot. */
  setSuspicious(on: boolean): void {
    if (on === this.suspicious) return;
    this.suspicious = on;
    if (!this.started || !this.withOpportunities) return;
    for (const l of LISTS) this.lists[l].clear();
    this.openOpportunities();
  }

  /** Follows what the screen shows; a new filter reopens the odds stream (and its snapshot). */
  setOddsSpec(spec: OddsSpec): void {
    const key = (x: OddsSpec | null): string => JSON.stringify(x ?? {});
    if (key(spec) === key(this.spec)) return;
    this.spec = spec;
    if (this.started) this.openOdds();
  }

  /** Reopens what a refusal closed, a little later (a closing stream frees its slot asynchronously). */
  retrySoon(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (this.oddsSource?.readyState === EventSource.CLOSED) this.openOdds();
      if (this.oppSource?.readyState === EventSource.CLOSED) this.openOpportunities();
    }, 2000);
  }

  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.resyncedTimer) clearTimeout(this.resyncedTimer);
    this.oddsSource?.close();
    this.oppSource?.close();
    this.oddsSource = null;
    this.oppSource = null;
  }

  /** Ends the streams and forgets everything (sign-out). */
  reset(): void {
    this.close();
    this.odds.clear();
    for (const l of LISTS) this.lists[l].clear();
    this.snapshotComplete = false;
    this.spec = null;
    this.started = false;
    this.withOpportunities = false;
    this.suspicious = false;
    this.state = 'closed';
    this.changed();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private openOdds(): void {
    this.oddsSource?.close();
    const q = new URLSearchParams({ channel: 'odds' });
    for (const [k, v] of Object.entries(this.spec ?? {})) if (v) q.set(k, v);
    this.snapshotComplete = false;
    this.odds.clear();
    this.state = 'connecting';
    this.changed();
    this.oddsSource = this.open(`/api/v1/stream?${q.toString()}`, true);
  }

  private openOpportunities(): void {
    this.oppSource?.close();
    if (this.state === 'idle') this.setState('connecting');
    const q = new URLSearchParams({
      channel: 'opportunities',
      min_ev: String(STREAM_THRESHOLDS.ev),
      min_profit: String(STREAM_THRESHOLDS.arbitrage),
    });
    if (this.suspicious) q.set('include', 'suspicious');
    this.oppSource = this.open(`/api/v1/stream?${q.toString()}`, false);
  }

  private open(url: string, isOdds: boolean): EventSource {
    const es = new EventSource(url);
    const on = (name: string, apply: (data: unknown) => void): void => {
      es.addEventListener(name, (e) => {
        this.lastFrameAt = Date.now();
        apply(JSON.parse((e as MessageEvent<string>).data) as unknown);
        this.changed();
      });
    };
    on('heartbeat', () => undefined);
    on('snapshot', (d) => this.applySnapshot(d as Row));
    on('connected', (d) => this.setState((d as { resync?: boolean }).resync ? 'resynced' : 'live'));
    if (isOdds) {
      on('snapshot:complete', () => {
        this.snapshotComplete = true;
      });
      on('odds:update', (d) => {
        for (const r of (d as { odds: LiveOdds[] }).odds) {
          const old = this.odds.get(r.id);
          this.odds.set(r.id, { ...r, _v: old ? old._v + 1 : 1, _suspended: r.is_active === false });
        }
      });
      on('odds:removed', (d) => {
        for (const id of (d as { ids: string[] }).ids) {
          const old = this.odds.get(id);
          if (old) this.odds.set(id, { ...old, _v: old._v + 1, _suspended: true });
        }
      });
    }
    for (const [prefix, list] of LIST_OF_PREFIX) {
      on(`${prefix}:detected`, (d) => {
        for (const r of d as OpportunityRow[]) this.listOf(list).set(r.id, r);
      });
      on(`${prefix}:expired`, (d) => {
        for (const id of (d as { expired: string[] }).expired) this.lists[list].delete(id);
      });
    }
    es.onerror = () => {
      // EventSource retries by itself (with Last-Event-ID, so the server resumes exactly) unless
      // the answer was not a stream at all (401 after the session ended, 429): then it is closed.
      if (isOdds || es.readyState === EventSource.CLOSED) this.setState('reconnecting');
      if (es.readyState === EventSource.CLOSED) this.onRefused();
    };
    return es;
  }

  private setState(state: StreamState): void {
    this.state = state;
    if (state === 'resynced') {
      // "Resynced" is news for a moment; then the stream is simply live again.
      this.resyncedTimer = setTimeout(() => {
        if (this.state === 'resynced') this.setState('live');
      }, 5000);
    }
    this.changed();
  }

  private applySnapshot(d: Row): void {
    if (Array.isArray(d['odds'])) {
      if (d['offset'] === 0) this.odds.clear();
      for (const r of d['odds'] as LiveOdds[]) this.odds.set(r.id, { ...r, _v: 0, _suspended: r.is_active === false });
      return;
    }
    for (const list of LISTS) {
      const rows = d[list];
      if (!Array.isArray(rows)) continue;
      if (d['chunk'] === 1) this.lists[list].clear();
      for (const r of rows as OpportunityRow[]) this.listOf(list).set(r.id, r);
    }
  }

  /** A list as the frames fill it: a frame of a list's prefix carries that list's rows. */
  private listOf(list: ListName): Map<string, OpportunityRow> {
    return this.lists[list] as Map<string, OpportunityRow>;
  }

  private changed(): void {
    this.version++;
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      for (const l of this.listeners) l();
    });
  }
}

/** Re-renders the calling component when the live data changes (at most once per frame). */
export function useLive(live: LiveData): number {
  const [version, setVersion] = useState(live.version);
  useEffect(() => live.subscribe(() => setVersion(live.version)), [live]);
  return version;
}
