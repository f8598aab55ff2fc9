import type { LeagueDef } from '../../../schemas/index.js';
import { logistic, snapToGrid } from './pricing.js';

/**
 * The truth about a game, from which every market's fair probabilities follow: the expected
 * home margin and total, each the centre of a logistic distribution. A move of the margin is
 * a move of the home side's win probability in logit space, which is the random walk the
 * simulator runs.
 */
export interface GameState {
  /** Expected home margin, in the sport's points (or in logits when the sport has no score scale). */
  margin: number;
  /** Expected combined score. */
  total: number;
  /** Logistic scale of the margin: margin / marginScale is the logit of the home win. */
  marginScale: number;
  totalScale: number;
  /** Draw probability of an even match; 0 without a draw outcome. */
  drawBase: number;
}

/** A logistic with standard deviation sd has scale sd * sqrt(3) / pi. */
const SD_TO_SCALE = Math.sqrt(3) / Math.PI;

/** Margin and total spread per sqrt(expected total), by sport: lumpy scoring spreads wider. */
const SPREAD_FACTOR: Readonly<Record<string, { margin: number; total: number }>> = {
  basketball: { margin: 0.8, total: 1.2 },
  football: { margin: 2.0, total: 2.0 },
  hockey: { margin: 0.95, total: 0.95 },
  baseball: { margin: 1.4, total: 1.3 },
  soccer: { margin: 1.0, total: 1.0 },
  tennis: { margin: 1.1, total: 1.0 },
  rugby: { margin: 2.0, total: 1.8 },
  rugby_league: { margin: 2.0, total: 1.8 },
};

/**
 * Spread of team strength in a league, as the logit standard deviation of the home win: a
 * hockey or baseball favourite is rarely beyond -250, a basketball or tennis one often is.
 */
const STRENGTH_SPREAD: Readonly<Record<string, number>> = {
  hockey: 0.45,
  baseball: 0.35,
  soccer: 0.6,
  basketball: 0.8,
  football: 0.75,
  tennis: 1,
};

export function strengthSpread(league: LeagueDef): number {
  return STRENGTH_SPREAD[league.sport] ?? 0.7;
}

export function scalesFor(league: LeagueDef): { marginScale: number; totalScale: number } {
  const total = league.scoring.total;
  if (total <= 0) return { marginScale: 1, totalScale: 1 };
  const f = SPREAD_FACTOR[league.sport] ?? { margin: 1, total: 1 };
  const root = Math.sqrt(total);
  return { marginScale: f.margin * root * SD_TO_SCALE, totalScale: f.total * root * SD_TO_SCALE };
}

/** Writes the moneyline's fair probabilities (home, [draw,] away) into out; returns the count. */
export function fairMoneyline(state: GameState, margin: number, out: number[]): number {
  const z = margin / state.marginScale;
  const pHome = logistic(z);
  if (state.drawBase <= 0) {
    out[0] = pHome;
    out[1] = 1 - pHome;
    return 2;
  }
  // Draws get rarer as the match gets lopsided.
  const pDraw = state.drawBase * Math.exp(-0.35 * z * z);
  out[0] = (1 - pDraw) * pHome;
  out[1] = pDraw;
  out[2] = (1 - pDraw) * (1 - pHome);
  return 3;
}

/** Probability that home covers the home handicap `homeLine` over a period (1, 0.5, 0.25 of the game). */
export function fairHomeCover(state: GameState, margin: number, period: number, homeLine: number): number {
  return logistic((margin * period + homeLine) / (state.marginScale * Math.sqrt(period)));
}

export function fairOver(mean: number, scale: number, line: number): number {
  return logistic((mean - line) / scale);
}

/** Expected score and scale of one team, for team totals. */
export function teamMean(total: number, margin: number, side: 0 | 1): number {
  return side === 0 ? (total + margin) / 2 : (total - margin) / 2;
}

export function teamScale(state: GameState): number {
  return state.totalScale * Math.SQRT1_2;
}

export function propScale(mean: number, cv: number): number {
  return Math.max(cv * mean, 0.8 * Math.sqrt(mean)) * SD_TO_SCALE;
}

/** Where a market's lines sit: on `offset + k * step`; `fixed` spreads are always +-step (puck/run lines). */
export interface LineGrid {
  step: number;
  offset: number;
  fixed: boolean;
}

export function sideGrid(league: LeagueDef, period: number): LineGrid {
  const step = league.scoring.spreadStep;
  if (step >= 1 && period === 1) return { step, offset: 0, fixed: true };
  return { step: step >= 1 ? 0.5 : step, offset: 0, fixed: false };
}

export function totalGrid(league: LeagueDef, period: number): LineGrid {
  const step = league.scoring.totalStep;
  // Whole-number steps sit on the half (2.5 rounds, 10.5 legs), so a total never pushes.
  if (step >= 1) return { step: period === 1 ? step : 1, offset: 0.5, fixed: false };
  return { step, offset: 0, fixed: false };
}

export const PROP_GRID: LineGrid = { step: 1, offset: 0.5, fixed: false };

/**
 * The line a book should hang: the current one until the fair centre has moved clearly past
 * the next grid point (hysteresis, or lines would flicker between two values on every tick).
 * `centre` is where the line would sit at 50/50: -margin for a home handicap, the mean for a total.
 */
export function nextLine(current: number | null, centre: number, grid: LineGrid, scale: number): number {
  if (grid.fixed) {
    const favourite = centre < 0 ? -grid.step : grid.step;
    if (current === null) return favourite;
    return Math.abs(centre) > 0.1 * scale ? favourite : current;
  }
  const target = snapToGrid(centre, grid.step, grid.offset);
  // Thresholds of counting stats start at 0.5: nobody offers over -0.5 assists.
  const bounded = grid.offset > 0 && target < grid.offset ? grid.offset : target;
  if (current === null) return bounded;
  if (bounded === current) return current;
  const threshold = Math.max(0.75 * grid.step, 0.12 * scale);
  return Math.abs(centre - current) > threshold ? bounded : current;
}
