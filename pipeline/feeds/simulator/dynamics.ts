import type { SimEvent, SimProp } from './board.js';
import { LEAD_TAKEN_BACK_WITHIN } from './following.js';
import type { Prng } from './prng.js';

/**
 * How the truth moves: a slow random walk of the home side's logit, plus jumps (team news
 * before the game, scores during it). Jumps are what sharp books react to within a second and
 * soft books only after their lag, so they are the main source of +EV and arbitrage.
 */
export interface Regime {
  /** Logit standard deviation per sqrt(minute). */
  drift: number;
  jumpsPerMinute: number;
  /** Logit size of one jump: the standard deviation of a normal, or the scale of a Laplace (`jumpShape`). */
  jumpSize: number;
  /**
   * How jump sizes spread: a normal, or a Laplace (the size exponential, median `jumpSize` x ln 2,
   * 90th percentile x ln 10), whose wider tail is the recorded pre-game moves' shape.
   */
  jumpShape: 'normal' | 'laplace';
  /** Log-mean standard deviation per sqrt(minute) of player stats. */
  propDrift: number;
  propJumpsPerMinute: number;
  propJumpSize: number;
}

/**
 * Before the game the sharp line stands still between steps and steps at the rate and size the
 * recordings' lead book steps (`npx tsx bench/pregame-steps.ts`): LowVig, the one sharp book of
 * The Odds API recordings, moved its no-vig moneyline between two pre-match snapshots 0.10 times
 * an hour per game (Poisson, over 5,434 pairs of snapshots; NFL 0.074, World Cup 0.135), by
 * 0.021 logits at the median and 0.075 at the 90th percentile (152 steps in pairs at most 30
 * minutes apart): a Laplace of scale 0.030 (median 0.021, 90th percentile 0.070). The lead book
 * is the measure because a sharp book here moves only at the steps of its line (no wander, its lean drawn
 * with its line); the median over books also steps when single books move on their own (0.22 an
 * hour, 0.009 logits at the median). There is no drift: it was 0.003 logit per root minute, and
 * news once a day at a standard deviation of 0.075, so the consensus moved 0.17 points per 15
 * minutes at the median where the recorded one stands still (0.00), and a lead book's "move"
 * was mostly drift crossing the threshold (docs/simulator.md, "Stop 50" and "Stop 51"). Tried alone
 * (stop 51) it left every soft book following every step within minutes; each soft book now
 * takes a step in after a delay of its own, or not before the game, and moves its lean at steps
 * of its own (`BookProfile.ownStepsPerHour`), as the recorded ones do (stop 52). A step is news,
 * a step of the truth, or at the share of the lead book's steps it took back, a step of the sharp
 * line's lean over the truth, taken back after the recorded delay (`following.ts`, stop 53).
 * The recorded rate counts the reversals among the lead book's steps, so fresh steps come at the
 * rest: the rate over one plus the share taken back.
 */
const LEAD_STEPS_PER_HOUR = 0.102;
const LEAD_TAKEN_BACK = LEAD_TAKEN_BACK_WITHIN[LEAD_TAKEN_BACK_WITHIN.length - 1]?.share ?? 0;

const PREGAME: Regime = {
  drift: 0,
  jumpsPerMinute: LEAD_STEPS_PER_HOUR / (1 + LEAD_TAKEN_BACK) / 60,
  jumpSize: 0.03,
  jumpShape: 'laplace',
  propDrift: 0.004,
  propJumpsPerMinute: 1 / 120,
  propJumpSize: 0.08,
};

export const LIVE_REGIME: Regime = {
  drift: 0.06,
  jumpsPerMinute: 1 / 10,
  jumpSize: 0.3,
  jumpShape: 'normal',
  propDrift: 0.03,
  propJumpsPerMinute: 1 / 15,
  propJumpSize: 0.12,
};

/** How a game's truth moves in play between scores; the simulator's option `liveMoves` replaces these (calibration runs). */
export type LiveMoves = Pick<Regime, 'drift' | 'jumpsPerMinute' | 'jumpSize'>;

/** Beyond +-4.5 logits (about -9000) books take the market down anyway. */
const MAX_LOGIT = 4.5;

/**
 * Moves an event's truth forward by dtMs. Returns whether the game itself jumped; props that
 * jumped are appended to `jumpedProps`.
 */
export function evolve(ev: SimEvent, dtMs: number, now: number, rng: Prng, jumpedProps: SimProp[], live: Regime = LIVE_REGIME): boolean {
  if (dtMs <= 0) return false;
  const regime = ev.status === 'live' ? live : PREGAME;
  const minutes = dtMs / 60_000;
  const root = Math.sqrt(minutes);
  const st = ev.state;
  let z = st.margin / st.marginScale + regime.drift * root * rng.normal();
  let totalMove = 0.5 * regime.drift * root * rng.normal() * st.totalScale;

  const jumps = rng.poisson(regime.jumpsPerMinute * minutes);
  let jumpZ = 0;
  let jumpTotal = 0;
  for (let i = 0; i < jumps; i++) {
    jumpZ += jump(regime, rng);
    if (rng.chance(0.5)) jumpTotal += 0.8 * jump(regime, rng) * st.totalScale;
  }
  z += jumpZ;
  totalMove += jumpTotal;
  z = Math.max(-MAX_LOGIT, Math.min(MAX_LOGIT, z));
  const before = st.margin;
  st.margin = z * st.marginScale;
  const totalBefore = st.total;
  st.total = Math.max(st.total * 0.5, st.total + totalMove);
  if (jumps > 0) {
    ev.jumpAt = now;
    // Lagging books see the game as it was before this step's news.
    ev.jumpMargin = st.margin - before;
    ev.jumpTotal = st.total - totalBefore;
  }

  for (const p of ev.props) {
    let logMove = regime.propDrift * root * rng.normal();
    const n = rng.poisson(regime.propJumpsPerMinute * minutes);
    let jump = 0;
    for (let i = 0; i < n; i++) jump += regime.propJumpSize * rng.normal();
    logMove += jump;
    const prev = p.mean;
    p.mean = Math.max(0.1, p.mean * Math.exp(logMove));
    if (n > 0) {
      p.jumpAt = now;
      p.jumpDelta = p.mean - prev;
      jumpedProps.push(p);
    }
  }
  return jumps > 0;
}

/** One jump of the regime's size and shape, logits. */
function jump(regime: Regime, rng: Prng): number {
  if (regime.jumpShape === 'normal') return regime.jumpSize * rng.normal();
  const sign = rng.chance(0.5) ? 1 : -1;
  return sign * regime.jumpSize * -Math.log(1 - rng.next());
}
