/** History files in (a port with one importer per format) and the backtest of the +EV engine on them. */
export { FOOTBALL_DATA, footballData, parseFootballData } from './football-data.js';
export { parseCsv } from './csv.js';
export type { CsvRecord } from './csv.js';
export type { HistoricalMatch, HistoricalPrice, HistoryFormat, HistoryProblem, ParsedHistory, PricePhase } from './history.js';
export { HISTORY_FORMATS } from './formats.js';
export { matchRow, priceRow, storeHistory, storedHistory } from './rows.js';
export { BACKTEST_MARKETS, backtestBets, backtestTable, roi, unitProfit } from './backtest.js';
export type { BacktestBet, BacktestOptions, BacktestRow, RoiEstimate } from './backtest.js';
export { formatBacktestTable } from './report.js';
