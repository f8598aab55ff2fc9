import type { SimEvent, SimProp } from './board.js';
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
  /** Logit standard deviation of one jump. */
  jumpSize: number;
  /** Log-mean standard deviation per sqrt(minute) of player stats. */
  propDrift: number;
  propJumpsPerMinute: number;
  propJumpSize: number;
}

/**
 * Before the game lines hardly move between news: the recordings' consensus moneyline moves 0.13
 * points of probability per 15 minutes at the 90th percentile, where a drift of 0.012 with news
 * every four hours gave 1.8 (0.44 now). So fast a market put sharp books collected minutes apart
 * on either side of a move, arbitrage at their 2-3 % margins (docs/simulator.md, stop 46). News now
 * comes about once a day per game.
 */
const PREGAME: Regime = {
  drift: 0.003,
  jumpsPerMinute: 1 / 1440,
  jumpSize: 0.075,
  propDrift: 0.004,
  propJumpsPerMinute: 1 / 120,
  propJumpSize: 0.08,
};

export const LIVE_REGIME: Regime = {
  drift: 0.06,
  jumpsPerMinute: 1 / 10,
  jumpSize: 0.3,
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
    jumpZ += regime.jumpSize * rng.normal();
    if (rng.chance(0.5)) jumpTotal += 0.8 * regime.jumpSize * rng.normal() * st.totalScale;
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
