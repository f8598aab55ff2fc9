import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { DEVIG_METHODS } from '../schemas/index.js';
import type { MarketId } from '../schemas/index.js';
import {
  BACKTEST_MARKETS,
  FOOTBALL_DATA,
  HISTORY_FORMATS,
  backtestBets,
  backtestTable,
  formatBacktestTable,
  storeHistory,
  storedHistory,
} from '../pipeline/history/index.js';
import type { BacktestOptions, ParsedHistory } from '../pipeline/history/index.js';
import { CommandStoreError, openMigratedStore } from './command-store.js';
import { loadConfig } from './config.js';

const IMPORT_USAGE = `usage: make import-history FILE=path FORMAT=${[...HISTORY_FORMATS.keys()].join('|')}`;
const BACKTEST_USAGE = `usage: make backtest [FILE=path FORMAT=${[...HISTORY_FORMATS.keys()].join('|')}] [REFERENCE=pinnacle|betfair_ex_eu] [THRESHOLDS=0,1,2,3,5] [MARKETS=moneyline,total_points,point_spread]`;
const DEFAULT_THRESHOLDS = [0, 1, 2, 3, 5];

export class HistoryCommandError extends Error {}

/**
 * `make import-history`: a history file into `history_matches` / `history_prices`, every cell
 * that could not be read reported by line and column (the rest of its row is still imported).
 * `make backtest`: the imported history of a format (or a file read directly) through the +EV
 * engine, printed as the table of `docs/analysts.md`. Both return the lines to print.
 */
export async function runHistoryCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<string[]> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      file: { type: 'string' },
      format: { type: 'string' },
      reference: { type: 'string' },
      thresholds: { type: 'string' },
      markets: { type: 'string' },
    },
    strict: true,
  });
  const file = values.file ?? '';
  const formatName = values.format || FOOTBALL_DATA;
  const format = HISTORY_FORMATS.get(formatName);
  if (command === 'import') {
    if (file === '') throw new HistoryCommandError(`FILE is required\n${IMPORT_USAGE}`);
    if (!format)
      throw new HistoryCommandError(`FORMAT '${formatName}' is not one of ${[...HISTORY_FORMATS.keys()].join(', ')}\n${IMPORT_USAGE}`);
    const history = format.parse(readHistoryFile(file));
    await withStore(env, (store) => storeHistory(store, history, Date.now()));
    return [
      ...history.problems.map((p) => `${file}:${p.line}: ${p.field}: ${p.reason}`),
      `${file}: ${history.matches.length} matches and ${history.prices.length} prices imported (${format.name}); ${history.problems.length} cells not read`,
    ];
  }
  if (command === 'backtest') {
    if (!format)
      throw new HistoryCommandError(`FORMAT '${formatName}' is not one of ${[...HISTORY_FORMATS.keys()].join(', ')}\n${BACKTEST_USAGE}`);
    const options: BacktestOptions = {
      referenceBook: values.reference || 'pinnacle',
      thresholds: thresholdsOf(values.thresholds),
      methods: DEVIG_METHODS,
      markets: marketsOf(values.markets),
    };
    const history: ParsedHistory =
      file === '' ? await withStore(env, (store) => storedHistory(store, format.name)) : format.parse(readHistoryFile(file));
    if (history.matches.length === 0)
      throw new HistoryCommandError(
        `no ${format.name} history ${file === '' ? 'imported: run make import-history first, or pass FILE=' : `in ${file}`}`,
      );
    const started = performance.now();
    const bets = backtestBets(history, options);
    const seconds = (performance.now() - started) / 1000;
    return [
      `${history.matches.length} matches from ${file === '' ? `the store (${format.name})` : file}; +EV at the opening against ${options.referenceBook}'s de-vigged line, graded on its de-vigged close and the result; ${bets.length} +EV prices in ${seconds.toFixed(1)} s`,
      'ROI interval: 95 %, normal approximation, standard error clustered by match; Kelly: full Kelly % of a fixed bankroll per bet',
      formatBacktestTable(backtestTable(bets, options)),
    ];
  }
  throw new HistoryCommandError(`${IMPORT_USAGE}\n${BACKTEST_USAGE}`);
}

function thresholdsOf(raw: string | undefined): number[] {
  if (raw === undefined || raw === '') return DEFAULT_THRESHOLDS;
  const list = raw.split(',').map((t) => Number(t.trim()));
  if (list.some((t) => !Number.isFinite(t) || t < 0 || t > 100))
    throw new HistoryCommandError(`THRESHOLDS must be EV percents from 0 to 100, comma-separated\n${BACKTEST_USAGE}`);
  return list;
}

function marketsOf(raw: string | undefined): MarketId[] {
  if (raw === undefined || raw === '') return [...BACKTEST_MARKETS];
  const list = raw.split(',').map((m) => m.trim());
  const unknown = list.find((m) => !(BACKTEST_MARKETS as readonly string[]).includes(m));
  if (unknown !== undefined)
    throw new HistoryCommandError(`MARKETS: '${unknown}' is not one of ${BACKTEST_MARKETS.join(', ')}\n${BACKTEST_USAGE}`);
  return list as MarketId[];
}

function readHistoryFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new HistoryCommandError(`cannot read FILE ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function withStore<T>(
  env: Record<string, string | undefined>,
  use: (store: Awaited<ReturnType<typeof openMigratedStore>>) => Promise<T>,
): Promise<T> {
  let store;
  try {
    store = await openMigratedStore(loadConfig(env));
  } catch (e) {
    if (e instanceof CommandStoreError) throw new HistoryCommandError(e.message);
    throw e;
  }
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runHistoryCommand(process.argv.slice(2), process.env).then(
    (lines) => process.stdout.write(lines.join('\n') + '\n'),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(2);
    },
  );
}
