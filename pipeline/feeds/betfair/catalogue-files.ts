import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
