/**
 * Key numbers: the margins (spreads) and combined scores (totals) games land on far more often
 * than their neighbours, so a line that moves onto, off or across one changes a bet's value more
 * than a half point elsewhere. Per league, since two leagues of one sport score differently
 * (college totals are spread too wide to have any). `primary` are the ones line-move alert rules
 * watch by default (`key_number`); `secondary` the lesser ones a middle's window is also scored on.
 */
export interface KeyNumberSet {
  primary: readonly number[];
  secondary: readonly number[];
}

export interface LeagueKeyNumbers {
  /** Absolute margins (a handicap of -3 and one of +3 both sit on 3). */
  spread: KeyNumberSet;
  totals: KeyNumberSet;
}

const FOOTBALL_MARGINS: KeyNumberSet = { primary: [3, 7, 10, 14], secondary: [6, 4, 1] };

export const KEY_NUMBERS: ReadonlyMap<string, LeagueKeyNumbers> = new Map([
  ['nfl', { spread: FOOTBALL_MARGINS, totals: { primary: [41, 44, 47], secondary: [37, 43, 51] } }],
  ['ncaaf', { spread: FOOTBALL_MARGINS, totals: { primary: [], secondary: [] } }],
]);
