import type { CanonicalEvent } from '../../schemas/index.js';
import type { LiveBoard } from './board.js';

export interface EventCount {
  events: number;
  live: number;
}

/** Events with odds, counted under each key an event maps to (its sport, league or teams). */
export function countEvents(board: LiveBoard, keysOf: (e: CanonicalEvent) => readonly string[]): Map<string, EventCount> {
  const counts = new Map<string, EventCount>();
  for (const e of board.activeEvents()) {
    for (const k of keysOf(e)) {
      const c = counts.get(k) ?? { events: 0, live: 0 };
      c.events++;
      if (e.isLive) c.live++;
      counts.set(k, c);
    }
  }
  return counts;
}
