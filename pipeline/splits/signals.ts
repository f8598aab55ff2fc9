import type { DivergenceSignal, RlmSignal, SplitMarket, SplitSide, SplitSideRecord } from '../../schemas/index.js';
import { americanToProbability } from '../odds-math/index.js';

/**
 * The sharp-money signals on one market of one book's splits. Pure functions of snapshots; the
 * rules and thresholds are explained in docs/splits.md, and these constants are the only place
 * they are set.
 */
export const SIGNAL_RULES = {
  /** Handle share minus bet share on one side, at least this much (10 points) is a divergence. */
  divergenceMinGap: 0.1,
  /** RLM needs a clear public side: at least this share of the tickets. */
  rlmMinPublicBets: 0.55,
  /** Spread and total lines must have moved at least this many points. */
  rlmMinLineMove: 0.5,
  /** Moneylines: the public side's implied probability must have dropped by this much. */
  rlmMinProbabilityMove: 0.02,
} as const;

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** The side whose handle share most exceeds its bet share, when by at least the threshold. */
export function divergence(sides: readonly SplitSideRecord[]): DivergenceSignal | null {
  let best: SplitSideRecord | undefined;
  for (const s of sides) if (!best || s.handlePct - s.betPct > best.handlePct - best.betPct) best = s;
  if (!best) return null;
  const gap = round4(best.handlePct - best.betPct);
  return gap >= SIGNAL_RULES.divergenceMinGap ? { sharpSide: best.side, gap } : null;
}

/** What reverse line movement needs: the splits' own thresholds, or an alert rule's. */
export interface RlmThresholds {
  /** Which share makes a side the public's: tickets (the splits' signal) or money. */
  publicBy: 'bets' | 'handle';
  /** The public side's lowest share (0 to 1). */
  minPublicShare: number;
  minLineMove: number;
  minProbabilityMove: number;
}

/** The thresholds of the `rlm` signal every splits record carries. */
export const SPLITS_RLM: RlmThresholds = {
  publicBy: 'bets',
  minPublicShare: SIGNAL_RULES.rlmMinPublicBets,
  minLineMove: SIGNAL_RULES.rlmMinLineMove,
  minProbabilityMove: SIGNAL_RULES.rlmMinProbabilityMove,
};

/**
 * Reverse line movement: the side with most bets now got a better number than at `open` (the
 * first snapshot of this book and market), although books move lines away from the side they
 * take most bets on. Spread: the public side's own handicap grew (−7 to −6.5). Total: the line
 * dropped under a public over, rose under a public under. Moneyline: the public side's implied
 * probability fell. `publicBetPct` is the public side's share by `rules.publicBy`.
 */
export function reverseLineMovement(
  market: SplitMarket,
  open: readonly SplitSideRecord[],
  now: readonly SplitSideRecord[],
  rules: RlmThresholds = SPLITS_RLM,
): RlmSignal | null {
  const [a, b] = now;
  if (!a || !b || now.length !== 2) return null;
  const share = (s: SplitSideRecord): number => (rules.publicBy === 'bets' ? s.betPct : s.handlePct);
  const pub = share(a) >= share(b) ? a : b;
  const other = pub === a ? b : a;
  if (share(pub) < rules.minPublicShare || share(pub) === share(other)) return null;
  const before = open.find((s) => s.side === pub.side);
  if (!before) return null;
  const openLine = measure(market, before);
  const currentLine = measure(market, pub);
  if (openLine === null || currentLine === null) return null;
  const move = round4(favourable(market, pub.side, openLine, currentLine));
  const min = market === 'moneyline' ? rules.minProbabilityMove : rules.minLineMove;
  if (move < min) return null;
  return {
    publicSide: pub.side,
    publicBetPct: share(pub),
    sharpSide: other.side,
    openLine: round4(openLine),
    currentLine: round4(currentLine),
    move,
  };
}

/** What moves: the line for spreads and totals, the implied probability for moneylines. */
function measure(market: SplitMarket, s: SplitSideRecord): number | null {
  if (market !== 'moneyline') return s.line;
  return s.priceAmerican === null ? null : americanToProbability(s.priceAmerican);
}

/** How much better the number got for `side` (positive) from `open` to `now`. */
function favourable(market: SplitMarket, side: SplitSide, open: number, now: number): number {
  if (market === 'spread') return now - open;
  if (market === 'total') return side === 'over' ? open - now : now - open;
  return open - now;
}
