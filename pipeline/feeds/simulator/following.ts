import { TimedHeap } from '../../timed-heap.js';
import { type Listing, type SimEvent, lagOf } from './board.js';
import type { Prng } from './prng.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A cumulative share of something timed from a pre-game step (a follow, a reversal) that had happened within a time. */
export interface ShareWithin {
  withinMs: number;
  share: number;
}

/**
 * How soon a soft book takes in a step of the sharp line before the game (the sharp books price
 * it within seconds): the share of the recorded soft books that had followed a step of the lead
 * book (LowVig) at least half way within each time, read as a Kaplan-Meier estimate over both
 * recordings (`npx tsx bench/pregame-steps.ts`, `bench/follow-steps.ts`; docs/simulator.md,
 * "Stop 52"), BetOnline left out: it is LowVig's twin and moves with it (`BookProfile.pricesWith`;
 * with it the shares read 32.6 / 48.5 / 75.0 / 88.5 / 88.9 %, "Stop 55"). Cumulative. A book that has not followed within 72 hours, the longest a game is
 * listed ahead (`horizonMs`), does not before the game; every book with live odds prices the game
 * afresh at its start (`goLive`).
 */
export const PREGAME_FOLLOWED_WITHIN: readonly ShareWithin[] = [
  { withinMs: 15 * MINUTE, share: 0.252 },
  { withinMs: HOUR, share: 0.429 },
  { withinMs: 6 * HOUR, share: 0.723 },
  { withinMs: 24 * HOUR, share: 0.872 },
  { withinMs: 72 * HOUR, share: 0.877 },
];

/**
 * How soon the lead book takes a pre-game step of its own back at least half way: the share of
 * the recorded LowVig steps it had taken back within each time, Kaplan-Meier over both recordings
 * (152 steps, 57 seen taken back; `npx tsx bench/pregame-steps.ts`, `SoftSteps.reversals` in
 * `bench/follow-steps.ts`; docs/simulator.md, "Stop 53"), up to six hours, the horizon the follows
 * are judged over: later the estimate climbs to 65 % at a day and 100 % at three days on the few
 * steps still watched, and a reversal that late is as likely the line's next steps as a step
 * taken back. A step the simulator's draw puts past the last share is news, a step of the truth;
 * the others are the sharp line's lean, taken back after the drawn delay.
 */
export const LEAD_TAKEN_BACK_WITHIN: readonly ShareWithin[] = [
  { withinMs: 15 * MINUTE, share: 0.014 },
  { withinMs: HOUR, share: 0.104 },
  { withinMs: 6 * HOUR, share: 0.354 },
];

/**
 * How much of a step the lead book takes back when it does: all of it, back to where the line
 * stood. The recorded reversals go further at the median (1.42 of the step, 57 reversals), the
 * line's later steps on top; here those are steps of their own.
 */
export const LEAD_TAKEN_BACK_SHARE = 1;

/**
 * A delay drawn from a table of cumulative shares, ms, from two uniform draws in [0, 1): the first
 * picks the time bracket by the shares, the second a time in it, uniformly (the recordings'
 * snapshots say no more than the bracket). Infinity when the first draw is past the last share
 * (a soft book that does not follow before the game; a lead step that is not taken back).
 */
export function delayWithin(u: number, v: number, table: readonly ShareWithin[]): number {
  let from = 0;
  for (const { withinMs, share } of table) {
    if (u < share) return from + v * (withinMs - from);
    from = withinMs;
  }
  return Infinity;
}

/** How soon the sharp line's steps are followed and taken back, and how far back (the recorded ones; tests give their own). */
export interface PregameShares {
  followed: readonly ShareWithin[];
  takenBack: readonly ShareWithin[];
  share: number;
}

const RECORDED: PregameShares = { followed: PREGAME_FOLLOWED_WITHIN, takenBack: LEAD_TAKEN_BACK_WITHIN, share: LEAD_TAKEN_BACK_SHARE };

/** A soft book taking in a step of the sharp line before the game that it has priced without so far. */
interface Follow {
  kind: 'follow';
  listing: Listing;
  margin: number;
  total: number;
  /** Taken in: a reversal of the step is then a step of its own for the book to follow back. */
  done: boolean;
}

/** The sharp line taking back (part of) a step of its lean. */
interface TakeBack {
  kind: 'takeBack';
  event: SimEvent;
  margin: number;
  total: number;
  /** Each soft listing's follow of the step, by its index in `event.listings` (one not scheduled: the book does not follow before the game); null for the rest. */
  follows: (Follow | null)[];
}

/**
 * Who takes in what of the sharp line before the game. A step of a game's line (`evolve`'s jump)
 * is news, a step of the truth, or, at the share of the lead book's steps it took back, a step of
 * the sharp line's lean (`SimEvent.leanMargin`), taken back after the recorded delay: the sharp
 * books price each step after their lag, a second or two; each soft book after a delay of its
 * own, drawn from how soon the recorded soft books followed a step of the lead book, or not
 * before the game, and until then prices the game as it was (`Listing.behindMargin`). When the
 * sharp line takes a step back, a soft book that had not followed it yet has that much less to
 * follow, and one that had follows back after a delay of its own. With every step a step of the
 * truth, soft books left behind stood off the sharp line for hours (docs/simulator.md, "Stop 52"
 * and "Stop 53").
 */
export class PregameFollowing {
  private readonly due = new TimedHeap<Follow | TakeBack>();

  /** `requote` queues a requote of the listing's game quotes at a time; `rng` is a stream of these draws' own. */
  constructor(
    private readonly rng: Prng,
    private readonly requote: (l: Listing, at: number) => void,
    private readonly shares: PregameShares = RECORDED,
  ) {}

  /** A step of the game's line before the game, the `jumpMargin` and `jumpTotal` that `evolve` has just added to the truth. */
  step(ev: SimEvent, now: number): void {
    const margin = ev.jumpMargin;
    const total = ev.jumpTotal;
    // Each book's own delay says when it sees the step, not a lag shared by the game.
    ev.jumpAt = -Infinity;
    const back = delayWithin(this.rng.next(), this.rng.next(), this.shares.takenBack);
    if (back !== Infinity) {
      // Noise: the sharp line moves, the truth does not.
      ev.state.margin -= margin;
      ev.state.total -= total;
      ev.leanMargin += margin;
      ev.leanTotal += total;
    }
    const follows = this.move(ev, now, margin, total, null);
    if (back !== Infinity) {
      const share = this.shares.share;
      this.due.push(now + back, { kind: 'takeBack', event: ev, margin: share * margin, total: share * total, follows });
    }
  }

  /** Follows and reversals whose time has come. */
  takeIn(now: number): void {
    while (this.due.peekTime() <= now) {
      // Each at its own time, so that a follow back is timed from the reversal, not from the step that found it.
      const at = this.due.peekTime();
      const d = this.due.pop();
      if (d === undefined) return;
      // Once the game is on every book has priced it afresh (`atStart`).
      if (d.kind === 'takeBack') {
        const ev = d.event;
        if (ev.status !== 'upcoming') continue;
        ev.leanMargin -= d.margin;
        ev.leanTotal -= d.total;
        this.move(ev, at, -d.margin, -d.total, d);
        continue;
      }
      d.done = true;
      const l = d.listing;
      if (l.closed || l.event.status !== 'upcoming' || (d.margin === 0 && d.total === 0)) continue;
      l.behindMargin -= d.margin;
      l.behindTotal -= d.total;
      this.requote(l, at);
    }
  }

  /** The sharp line moved: each listing's follow of the move, soft ones only (`TakeBack.follows`). */
  private move(ev: SimEvent, now: number, margin: number, total: number, takingBack: TakeBack | null): (Follow | null)[] {
    return ev.listings.map((l, i) => {
      if (l.closed) return null;
      if (l.book.isSharp || pricesWithListed(l, ev)) {
        this.requote(l, now + lagOf(l.book, false) * this.rng.range(1, 1.4));
        return null;
      }
      // The book keeps its prices: the move is one more it has not taken in.
      l.behindMargin += margin;
      l.behindTotal += total;
      const pending = takingBack?.follows[i];
      if (pending !== undefined && pending !== null && !pending.done) {
        // Not followed yet: the line came back toward the book, which has that much less to follow.
        pending.margin += margin;
        pending.total += total;
        return null;
      }
      const f: Follow = { kind: 'follow', listing: l, margin, total, done: false };
      const delay = delayWithin(this.rng.next(), this.rng.next(), this.shares.followed);
      if (delay !== Infinity) this.due.push(now + delay, f);
      return f;
    });
  }
}

/** Whether the listing's book prices the game with a sharp book that lists it (`BookProfile.pricesWith`): it moves when that book does, after its own lag. */
function pricesWithListed(l: Listing, ev: SimEvent): boolean {
  const twin = l.book.pricesWith;
  return twin !== null && ev.listings.some((o) => o.book.id === twin && !o.closed);
}

/** At the start every book looks at the game afresh: the sharp line's lean and whatever a book had not followed are gone. */
export function atStart(ev: SimEvent): void {
  ev.leanMargin = 0;
  ev.leanTotal = 0;
  for (const l of ev.listings) {
    l.behindMargin = 0;
    l.behindTotal = 0;
  }
}
