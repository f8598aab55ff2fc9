import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { catalogueOf, readCatalogue } from './catalogue.js';
import type { CatalogueMarket } from './catalogue.js';

/** Catalogue files kept beside a recording are named after the market: `betfair_catalogue_<market id>.json`. */
const CATALOGUE_FILE = /^betfair_catalogue_.*\.json$/;

/** The catalogue files in the recording's folder. */
export async function catalogueFilesBeside(recording: string): Promise<string[]> {
  const dir = dirname(recording);
  const names = await readdir(dir);
  return names
    .filter((n) => CATALOGUE_FILE.test(n))
    .sort()
    .map((n) => join(dir, n));
}

/** Every market of the given `listMarketCatalogue` answers, by market id (a later file wins a repeated id). */
export async function loadCatalogueFiles(files: readonly string[]): Promise<Map<string, CatalogueMarket>> {
  const markets: CatalogueMarket[] = [];
  for (const file of files) markets.push(...readCatalogue(JSON.parse(await readFile(file, 'utf8'))));
  return catalogueOf(markets);
}

/** A stream recording is named `betfair_stream_<market id>_<what>.jsonl`; the same match's score stream ends `_scores.jsonl`. */
const STREAM_RECORDING = /^(betfair_stream_[^_]+_)/;
const SCORES_SUFFIX = /_scores\.jsonl(\.gz)?$/;

/** The score recording of the same market beside an odds recording, or null when there is none (or more than one to choose from). */
export async function scoresFileBeside(recording: string): Promise<string | null> {
  const prefix = STREAM_RECORDING.exec(basename(recording))?.[1];
  if (prefix === undefined) return null;
  const dir = dirname(recording);
  const found = (await readdir(dir)).filter((n) => n.startsWith(prefix) && SCORES_SUFFIX.test(n) && n !== basename(recording));
  return found.length === 1 && found[0] !== undefined ? join(dir, found[0]) : null;
}
