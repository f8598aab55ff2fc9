const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * How soon a soft book takes in a step of a game's truth before the game (news; the sharp books
 * price it within seconds): the share of the recorded soft books that had followed a step of the
 * lead book (LowVig) at least half way within each time, read as a Kaplan-Meier estimate over
 * both recordings (`npx tsx bench/pregame-steps.ts`, `bench/follow-steps.ts`; docs/simulator.md,
 * "Stop 52"). Cumulative. A book that has not followed within 72 hours, the longest a game is
 * listed ahead (`horizonMs`), does not before the game; every book with live odds prices the game
 * afresh at its start (`goLive`).
 */
export const PREGAME_FOLLOWED_WITHIN: readonly { withinMs: number; share: number }[] = [
  { withinMs: 15 * MINUTE, share: 0.326 },
  { withinMs: HOUR, share: 0.485 },
  { withinMs: 6 * HOUR, share: 0.75 },
  { withinMs: 24 * HOUR, share: 0.885 },
  { withinMs: 72 * HOUR, share: 0.889 },
];

/**
 * One soft book's delay in following one pre-game step, ms, from two uniform draws in [0, 1): the
 * first picks the time bracket by the shares, the second a time in it, uniformly (the recordings'
 * snapshots say no more than the bracket). Infinity when the book does not follow before the game.
 */
export function followDelay(u: number, v: number, table: readonly { withinMs: number; share: number }[] = PREGAME_FOLLOWED_WITHIN): number {
  let from = 0;
  for (const { withinMs, share } of table) {
    if (u < share) return from + v * (withinMs - from);
    from = withinMs;
  }
  return Infinity;
}
