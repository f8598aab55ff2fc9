/**
 * The decimal price and implied probability a row carries beside its American price, rounded
 * to 4 and 6 places. One definition, because the board, the odds history and the closing lines
 * each show them for the same price, and a chart's last point must equal the row on /odds.
 */
import { americanToDecimal, americanToProbability } from './conversions.js';

export function roundedDecimalOdds(american: number): number {
  return Math.round(americanToDecimal(american) * 1e4) / 1e4;
}

export function roundedImpliedProbability(american: number): number {
  return Math.round(americanToProbability(american) * 1e6) / 1e6;
}
