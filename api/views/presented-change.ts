import type { CanonicalEvent } from '../../schemas/index.js';

/**
 * Whether an event changed in a field that rows present (start, teams, live) or that filters read
 * (sport, league): a stream must then look again at what its groups hold for that event.
 */
export function presentedChange(a: CanonicalEvent, b: CanonicalEvent): boolean {
  return (
    a.startTime !== b.startTime ||
    a.homeTeamId !== b.homeTeamId ||
    a.awayTeamId !== b.awayTeamId ||
    a.isLive !== b.isLive ||
    a.sport !== b.sport ||
    a.league !== b.league
  );
}
