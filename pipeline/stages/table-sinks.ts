import type { Logger } from 'pino';
import { TableSink } from '../sinks/index.js';
import type { SinkCounters } from '../sinks/index.js';
import type { OlapStore } from '../store/index.js';

/** Every table the pipeline writes, in the order `stats().sinks` lists them. */
export const SINK_TABLES = [
  'odds_ticks',
  'odds_latest',
  'events',
  'opportunities',
  'closing_odds',
  'clv_grades',
  'clv_entries',
  'game_state',
  'futures_odds_ticks',
  'futures_odds_latest',
  'futures_ev',
  'splits_history',
  'splits_latest',
] as const;

export type SinkTable = (typeof SINK_TABLES)[number];

/** One retrying sink per table, shared by the stages that write it. */
export type TableSinks = Readonly<Record<SinkTable, TableSink>>;

export function openTableSinks(store: OlapStore, logger: Logger, retries: number | undefined): TableSinks {
  const options = retries === undefined ? {} : { retries };
  const sinks = Object.create(null) as Record<SinkTable, TableSink>;
  for (const table of SINK_TABLES) sinks[table] = new TableSink(store, table, logger, options);
  return sinks;
}

/** Every sink stops waiting for a store that does not answer (the pipeline stops: TableSink.release). */
export function releaseTableSinks(sinks: TableSinks): void {
  for (const table of SINK_TABLES) sinks[table].release();
}

export function sinkCounters(sinks: TableSinks): Record<SinkTable, SinkCounters> {
  const counters = {} as Record<SinkTable, SinkCounters>;
  for (const table of SINK_TABLES) counters[table] = sinks[table].counters;
  return counters;
}
