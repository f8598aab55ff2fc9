import { footballData } from './football-data.js';
import type { HistoryFormat } from './history.js';

/** The importers by the name `FORMAT=` gives (a Map: the name comes from the command line). */
export const HISTORY_FORMATS: ReadonlyMap<string, HistoryFormat> = new Map([[footballData.name, footballData]]);
