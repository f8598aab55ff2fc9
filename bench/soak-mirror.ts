/**
 * What one soak subscriber holds of `/odds`, built only from the frames it received, applied as
 * docs/api.md tells a client to (a snapshot replaces everything, updates upsert by id, removals
 * delete), and compared with `/odds` under the same filters once the feed has stopped.
 */

import { comparableRow } from '../test/support/comparable-row.js';

type Row = Record<string, unknown>;

export interface MirrorDiff {
  /** Rows `/odds` has that the mirror lacks or holds differently (first few ids). */
  differing: string[];
  /** Rows the mirror holds that `/odds` does not (first few ids). */
  extra: string[];
  /** How many of each, in all. */
  differingCount: number;
  extraCount: number;
}

export class OddsMirror {
  private readonly rows = new Map<string, string>();
  /** A WebSocket connection's next `initial` starts a fresh snapshot (set by `subscribed`). */
  private freshSnapshot = false;

  get size(): number {
    return this.rows.size;
  }

  private upsert(rows: readonly Row[] | undefined): void {
    for (const r of rows ?? []) this.rows.set(r['id'] as string, comparableRow(r));
  }

  private remove(ids: readonly string[] | undefined): void {
    for (const id of ids ?? []) this.rows.delete(id);
  }

  /** One SSE frame of the odds channel. */
  applySse(event: string, data: Row): void {
    if (event === 'snapshot') {
      if (data['offset'] === 0) this.rows.clear();
      this.upsert(data['odds'] as Row[] | undefined);
    } else if (event === 'odds:update' || event === 'odds:locked') this.upsert(data['odds'] as Row[] | undefined);
    else if (event === 'odds:removed') this.remove(data['ids'] as string[] | undefined);
  }

  /**
   * One WebSocket message. A resumed connection replays what it missed after `subscribed`; one
   * that resyncs sends `initial` messages (or none, for an empty filter) before `snapshot:complete`.
   */
  applyWs(message: Row): void {
    const type = message['type'];
    if (type === 'subscribed') {
      this.freshSnapshot = true;
      return;
    }
    if (type === 'initial') {
      if (this.freshSnapshot) this.rows.clear();
      this.freshSnapshot = false;
      this.upsert(message['data'] as Row[] | undefined);
      return;
    }
    if (type === 'snapshot:complete') {
      if (this.freshSnapshot && message['resumed'] !== true) this.rows.clear();
      this.freshSnapshot = false;
      return;
    }
    if (type === 'odds:update' || type === 'odds:locked') {
      this.freshSnapshot = false;
      this.upsert(message['data'] as Row[] | undefined);
    } else if (type === 'odds:removed') {
      this.freshSnapshot = false;
      this.remove(message['ids'] as string[] | undefined);
    }
  }

  /** This mirror against `/odds` (rows by id, as `comparableRow` gives them). */
  diff(truth: ReadonlyMap<string, string>): MirrorDiff {
    const differing = [...truth.keys()].filter((id) => this.rows.get(id) !== truth.get(id));
    const extra = [...this.rows.keys()].filter((id) => !truth.has(id));
    return { differing: differing.slice(0, 3), extra: extra.slice(0, 3), differingCount: differing.length, extraCount: extra.length };
  }

  /** The mirror's text of one row (for a report's example). */
  row(id: string): string | undefined {
    return this.rows.get(id);
  }
}
