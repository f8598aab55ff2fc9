import { SPORTSBOOKS } from '../schemas/index.js';
import { mapBookmakerKey } from '../pipeline/feeds/theoddsapi/index.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { LEAD_BOOK, NO_MOVE, SIZE_MAX_GAP_MS, logit, pregameShares } from './consensus-steps.js';
import type { StepPair } from './consensus-steps.js';

/**
 * How the recorded soft books move before the game beside the lead book (LowVig, the recordings'
 * one sharp book), from the same moneylines as `consensus-steps.ts` (each book's no-vig share of
 * the home side against the away side, as a logit):
 *
 * - **Own steps.** A soft book's moneyline compared between two snapshots in which the lead
 *   book's did not move and had not moved for `FOLLOW_HORIZON_MS` before: a soft step there
 *   follows no lead step the recording saw. Rate and size as `stepStats` reads them.
 * - **Following.** For each lead step seen between two snapshots at most `SIZE_MAX_GAP_MS` apart
 *   (so that when it happened is known within that), each soft book priced before it has a chance
 *   to follow: it has followed at the first later snapshot where it stands at least half the
 *   lead's step the same way from where it stood before the step, timed from the snapshot that
 *   showed the step (0: the same snapshot). A book not seen to follow is watched until its last
 *   pre-match sighting of the game, so the shares that follow within a time are read as a
 *   Kaplan-Meier estimate (games start, and a chance watched for an hour says nothing of six).
 * - **Reversals.** For each of those lead steps, whether the lead book itself took it back: at the
 *   first later snapshot where it stands at least half the step back toward where it was before
 *   it, timed from the snapshot that showed the step, with how much of the step it had taken back
 *   then; watched, like a follow, until the lead book's last pre-match sighting of the game.
 *
 * `bench/pregame-steps.ts` prints them for the recordings (docs/simulator.md, "Stop 52", where a
 * simulator driven by them was tried and reverted).
 */

/** A soft step within this long after a lead step may be a late follow, not a step of the book's own; also the judged follow horizon (`bench/market-stats.ts`). */
export const FOLLOW_HORIZON_MS = 6 * 3_600_000;
/** The times the follow shares are read at; the last, the longest the simulator lists a game ahead of its start. */
export const FOLLOW_MARKS_MS: readonly number[] = [15 * 60_000, 3_600_000, 6 * 3_600_000, 24 * 3_600_000, 72 * 3_600_000];
/** A soft book has followed once it moved this share of the lead's step the same way (as `bench/market-stats.ts` judges); the lead book has taken a step back once it moved this share of it back. */
const FOLLOW_SHARE = 0.5;

const SOFT: ReadonlySet<string> = new Set(SPORTSBOOKS.filter((b) => !b.isSharp).map((b) => b.id));

/** One sighting of an event before its start: each book's home-share logit, by recording key. */
interface Sighting {
  at: number;
  logits: Map<string, number>;
}

/** A soft book's moneyline between two snapshots in which the lead book stood still. */
export interface OwnPair extends StepPair {
  book: string;
}

/** One soft book's chance to follow one lead step. */
export interface FollowChance {
  book: string;
  /** Which lead step (the event and the snapshot that showed it), so that chances can be counted per step. */
  step: string;
  /** The lead book's step, logits, and as a no-vig probability, points. */
  stepLogit: number;
  stepPoints: number;
  /** From the snapshot that showed the step to the one that showed the book's follow; null when not seen to follow. */
  followedMs: number | null;
  /** From the snapshot that showed the step to the book's last pre-match sighting of the game. */
  watchedMs: number;
}

/** One lead step and whether the lead book took it back. */
export interface LeadReversal {
  step: string;
  stepLogit: number;
  /** From the snapshot that showed the step to the one that showed the lead book at least half way back; null when not seen. */
  revertedMs: number | null;
  /** How much of the step the lead book had taken back at that snapshot (1: all of it, more: past where it was); null when not seen. */
  takenBack: number | null;
  /** From the snapshot that showed the step to the lead book's last pre-match sighting of the game. */
  watchedMs: number;
}

/** A soft book's moneyline beside the lead book's in one sighting: how far apart they stood, logits (the book's less the lead's). */
export interface BesideLead {
  book: string;
  apartLogit: number;
}

/** Something timed from a lead step (a follow, a reversal) that may not have happened by the last time it was watched. */
export interface Watched {
  followedMs: number | null;
  watchedMs: number;
}

const probability = (z: number): number => 1 / (1 + Math.exp(-z));

export class SoftSteps {
  private readonly events = new Map<string, Sighting[]>();

  add(snapshot: RecordedSnapshot): void {
    for (const { id, shares } of pregameShares(snapshot)) {
      if (!shares.has(LEAD_BOOK)) continue;
      const logits = new Map<string, number>();
      for (const [key, share] of shares) logits.set(key, logit(share));
      let sightings = this.events.get(id);
      if (sightings === undefined) {
        sightings = [];
        this.events.set(id, sightings);
      }
      sightings.push({ at: snapshot.timestamp, logits });
    }
  }

  /** Soft books' moneylines between two sightings in which the lead book stood still, long after its last step. */
  ownPairs(): OwnPair[] {
    const out: OwnPair[] = [];
    for (const sightings of this.events.values()) {
      let leadStepSeenAt = -Infinity;
      for (let i = 1; i < sightings.length; i++) {
        const a = sightings[i - 1];
        const b = sightings[i];
        if (a === undefined || b === undefined) continue;
        const leadMove = (b.logits.get(LEAD_BOOK) ?? NaN) - (a.logits.get(LEAD_BOOK) ?? NaN);
        if (Math.abs(leadMove) > NO_MOVE) {
          leadStepSeenAt = b.at;
          continue;
        }
        if (a.at - leadStepSeenAt < FOLLOW_HORIZON_MS) continue;
        for (const [key, was] of a.logits) {
          const now = b.logits.get(key);
          if (now === undefined || !isSoft(key)) continue;
          out.push({ book: key, gapMs: b.at - a.at, moveLogit: now - was });
        }
      }
    }
    return out;
  }

  /** Every soft book's chance to follow every lead step seen between sightings close enough together. */
  followChances(): FollowChance[] {
    const out: FollowChance[] = [];
    for (const { sightings, i, at, step, stepPoints, id } of this.leadSteps()) {
      const before = sightings[i - 1];
      if (before === undefined) continue;
      for (const [key, base] of before.logits) {
        if (!isSoft(key)) continue;
        const { atMs, watchedMs } = firstAfter(sightings, at, i, key, (z) => (z - base) * Math.sign(step) >= FOLLOW_SHARE * Math.abs(step));
        out.push({ book: key, step: id, stepLogit: step, stepPoints, followedMs: atMs, watchedMs });
      }
    }
    return out;
  }

  /**
   * Every soft book's moneyline beside the lead book's, in every sighting that has both: whether a
   * book prices the game as the lead book does (BetOnline, LowVig's twin, docs/simulator.md "Stop
   * 55") or on its own.
   */
  besideLead(): BesideLead[] {
    const out: BesideLead[] = [];
    for (const sightings of this.events.values()) {
      for (const s of sightings) {
        const lead = s.logits.get(LEAD_BOOK);
        if (lead === undefined) continue;
        for (const [key, z] of s.logits) if (isSoft(key)) out.push({ book: key, apartLogit: z - lead });
      }
    }
    return out;
  }

  /** Every lead step seen between sightings close enough together, and whether the lead book took it back. */
  reversals(): LeadReversal[] {
    const out: LeadReversal[] = [];
    for (const { sightings, i, at, step, now, id } of this.leadSteps()) {
      const back = (z: number): number => ((now - z) * Math.sign(step)) / Math.abs(step);
      const { atMs, watchedMs, z } = firstAfter(sightings, at, i + 1, LEAD_BOOK, (x) => back(x) >= FOLLOW_SHARE);
      out.push({ step: id, stepLogit: step, revertedMs: atMs, takenBack: z === null ? null : back(z), watchedMs });
    }
    return out;
  }

  /** Each lead step seen between two sightings at most `SIZE_MAX_GAP_MS` apart: the event's sightings, the index of the one that showed it, its size and where it went. */
  private *leadSteps(): Generator<{
    sightings: Sighting[];
    i: number;
    at: number;
    step: number;
    now: number;
    stepPoints: number;
    id: string;
  }> {
    for (const [eventId, sightings] of this.events) {
      for (let i = 1; i < sightings.length; i++) {
        const a = sightings[i - 1];
        const b = sightings[i];
        if (a === undefined || b === undefined || b.at - a.at > SIZE_MAX_GAP_MS) continue;
        const was = a.logits.get(LEAD_BOOK);
        const now = b.logits.get(LEAD_BOOK);
        if (was === undefined || now === undefined) continue;
        const step = now - was;
        if (Math.abs(step) <= NO_MOVE) continue;
        yield { sightings, i, at: b.at, step, now, stepPoints: 100 * (probability(now) - probability(was)), id: `${eventId}@${b.at}` };
      }
    }
  }
}

/**
 * The first sighting from index `from` on where the book is priced and its logit passes `test`,
 * timed from `stepAt` (the snapshot that showed the lead step), with its logit; and how long the
 * book was watched: to that sighting, or to its last one when none passed.
 */
function firstAfter(
  sightings: readonly Sighting[],
  stepAt: number,
  from: number,
  key: string,
  test: (z: number) => boolean,
): { atMs: number | null; watchedMs: number; z: number | null } {
  let watchedMs = 0;
  for (let j = from; j < sightings.length; j++) {
    const s = sightings[j];
    const z = s?.logits.get(key);
    if (s === undefined || z === undefined) continue;
    watchedMs = s.at - stepAt;
    if (test(z)) return { atMs: watchedMs, watchedMs, z };
  }
  return { atMs: null, watchedMs, z: null };
}

function isSoft(recordingKey: string): boolean {
  const book = mapBookmakerKey(recordingKey)?.book;
  return book !== undefined && SOFT.has(book);
}

/**
 * The share of chances followed (or steps taken back) within each of `marks` ms, Kaplan-Meier: one
 * not seen to happen is censored at the time it was last watched (one at the same time counts first).
 */
export function followedWithin(chances: readonly Watched[], marks: readonly number[] = FOLLOW_MARKS_MS): number[] {
  const times = chances
    .map((c) => ({ t: c.followedMs ?? c.watchedMs, followed: c.followedMs !== null }))
    .sort((x, y) => x.t - y.t || Number(y.followed) - Number(x.followed));
  const out: number[] = [];
  let survival = 1;
  let atRisk = times.length;
  let k = 0;
  for (const mark of marks) {
    for (; k < times.length && (times[k]?.t ?? Infinity) <= mark; k++) {
      if (times[k]?.followed === true) survival *= 1 - 1 / atRisk;
      atRisk--;
    }
    out.push(1 - survival);
  }
  return out;
}
