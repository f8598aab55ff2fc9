/**
 * The client-side cache of exchange markets that the stream's change messages build: a market
 * change with `img` replaces the market's state, any other is a delta on it. Ladders are keyed
 * by price (`atb`/`atl`/`trd`: `[price, size]`, size 0 removes the price) or by depth level
 * (`batb`/`batl`: `[level, price, size]`, size 0 removes the level). Deterministic; the caller
 * validates a message (`marketChangeProblem`) before applying it, so a bad message changes nothing.
 */

export type RunnerStatus = 'ACTIVE' | 'REMOVED' | 'WINNER' | 'LOSER' | 'PLACED' | 'HIDDEN' | string;
export type MarketStatus = 'INACTIVE' | 'OPEN' | 'SUSPENDED' | 'CLOSED' | string;

export interface RunnerDefinition {
  id: number;
  hc: number;
  status: RunnerStatus;
  sortPriority: number;
  /** A removed runner's reduction factor (percent) applied to matched prices of the others. */
  adjustmentFactor: number | null;
}

export interface MarketDefinition {
  status: MarketStatus;
  inPlay: boolean;
  eventId: string | null;
  eventTypeId: string | null;
  marketType: string | null;
  countryCode: string | null;
  /** ISO time of the scheduled start. */
  marketTime: string | null;
  /** The exchange's commission on net winnings in this market, percent. */
  marketBaseRate: number | null;
  version: number | null;
  runners: readonly RunnerDefinition[];
}

export interface RunnerBook {
  id: number;
  hc: number;
  /** Available to back: price to size. */
  readonly atb: Map<number, number>;
  /** Available to lay: price to size. */
  readonly atl: Map<number, number>;
  /** Best available to back by depth level (0 = best): [price, size]. */
  readonly batb: Map<number, readonly [number, number]>;
  readonly batl: Map<number, readonly [number, number]>;
  /** Traded volume by price. */
  readonly trd: Map<number, number>;
  ltp: number | null;
  tv: number | null;
}

export interface MarketBook {
  id: string;
  definition: MarketDefinition | null;
  /** By `runnerKey(id, hc)`. */
  readonly runners: Map<string, RunnerBook>;
  tv: number | null;
  /** The last change to this market was conflated (several server updates merged into one). */
  conflated: boolean;
}

export function runnerKey(id: number, hc: number): string {
  return hc === 0 ? String(id) : `${id}:${hc}`;
}

function emptyRunner(id: number, hc: number): RunnerBook {
  return { id, hc, atb: new Map(), atl: new Map(), batb: new Map(), batl: new Map(), trd: new Map(), ltp: null, tv: null };
}

export function emptyMarket(id: string): MarketBook {
  return { id, definition: null, runners: new Map(), tv: null, conflated: false };
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const PRICE_LADDERS = ['atb', 'atl', 'trd'] as const;
const LEVEL_LADDERS = ['batb', 'batl'] as const;

function ladderProblem(value: unknown, width: number, path: string): string | null {
  if (!Array.isArray(value)) return `${path} is not an array`;
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    if (!Array.isArray(entry) || entry.length !== width || !entry.every(isNumber)) {
      return `${path}[${i}] is not ${width} numbers`;
    }
  }
  return null;
}

function definitionProblem(def: unknown, path: string): string | null {
  if (!isObject(def)) return `${path} is not an object`;
  if (typeof def['status'] !== 'string') return `${path}.status is missing`;
  const runners = def['runners'];
  if (!Array.isArray(runners)) return `${path}.runners is not an array`;
  for (let i = 0; i < runners.length; i++) {
    const r: unknown = runners[i];
    if (!isObject(r) || !isNumber(r['id'])) return `${path}.runners[${i}].id is not a number`;
  }
  return null;
}

/** Why one entry of an `mcm`'s `mc` cannot be applied, naming the field; null when it can. */
export function marketChangeProblem(mc: unknown, path: string): string | null {
  if (!isObject(mc)) return `${path} is not an object`;
  if (typeof mc['id'] !== 'string' || mc['id'] === '') return `${path}.id is not a market id`;
  if (mc['marketDefinition'] !== undefined) {
    const problem = definitionProblem(mc['marketDefinition'], `${path}.marketDefinition`);
    if (problem !== null) return problem;
  }
  if (mc['tv'] !== undefined && !isNumber(mc['tv'])) return `${path}.tv is not a number`;
  const rcs = mc['rc'];
  if (rcs === undefined) return null;
  if (!Array.isArray(rcs)) return `${path}.rc is not an array`;
  for (let i = 0; i < rcs.length; i++) {
    const rc: unknown = rcs[i];
    const at = `${path}.rc[${i}]`;
    if (!isObject(rc) || !isNumber(rc['id'])) return `${at}.id is not a number`;
    if (rc['hc'] !== undefined && !isNumber(rc['hc'])) return `${at}.hc is not a number`;
    for (const ladder of PRICE_LADDERS) {
      if (rc[ladder] === undefined) continue;
      const problem = ladderProblem(rc[ladder], 2, `${at}.${ladder}`);
      if (problem !== null) return problem;
    }
    for (const ladder of LEVEL_LADDERS) {
      if (rc[ladder] === undefined) continue;
      const problem = ladderProblem(rc[ladder], 3, `${at}.${ladder}`);
      if (problem !== null) return problem;
    }
    for (const field of ['ltp', 'tv'] as const) {
      if (rc[field] !== undefined && rc[field] !== null && !isNumber(rc[field])) return `${at}.${field} is not a number`;
    }
  }
  return null;
}

function readDefinition(def: Json): MarketDefinition {
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  const runners = (def['runners'] as Json[]).map((r): RunnerDefinition => ({
    id: r['id'] as number,
    hc: isNumber(r['hc']) ? r['hc'] : 0,
    status: str(r['status']) ?? 'ACTIVE',
    sortPriority: isNumber(r['sortPriority']) ? r['sortPriority'] : 0,
    adjustmentFactor: isNumber(r['adjustmentFactor']) ? r['adjustmentFactor'] : null,
  }));
  return {
    status: def['status'] as string,
    inPlay: def['inPlay'] === true,
    eventId: str(def['eventId']),
    eventTypeId: str(def['eventTypeId']),
    marketType: str(def['marketType']),
    countryCode: str(def['countryCode']),
    marketTime: str(def['marketTime']),
    marketBaseRate: isNumber(def['marketBaseRate']) ? def['marketBaseRate'] : null,
    version: isNumber(def['version']) ? def['version'] : null,
    runners,
  };
}

function applyPriceLadder(ladder: Map<number, number>, updates: readonly (readonly number[])[]): void {
  for (const [price, size] of updates as [number, number][]) {
    if (size === 0) ladder.delete(price);
    else ladder.set(price, size);
  }
}

function applyLevelLadder(ladder: Map<number, readonly [number, number]>, updates: readonly (readonly number[])[]): void {
  for (const [level, price, size] of updates as [number, number, number][]) {
    if (size === 0) ladder.delete(level);
    else ladder.set(level, [price, size]);
  }
}

/**
 * Applies one validated market change to `market` (or to a fresh market when `img` is set) and
 * returns the market it leaves.
 */
export function applyMarketChange(market: MarketBook | undefined, mc: Json): MarketBook {
  const id = mc['id'] as string;
  const book = market === undefined || mc['img'] === true ? emptyMarket(id) : market;
  if (isObject(mc['marketDefinition'])) book.definition = readDefinition(mc['marketDefinition']);
  if (isNumber(mc['tv'])) book.tv = mc['tv'];
  book.conflated = mc['con'] === true;
  for (const rc of (mc['rc'] as Json[] | undefined) ?? []) {
    const runnerId = rc['id'] as number;
    const hc = isNumber(rc['hc']) ? rc['hc'] : 0;
    const key = runnerKey(runnerId, hc);
    let runner = book.runners.get(key);
    if (runner === undefined) {
      runner = emptyRunner(runnerId, hc);
      book.runners.set(key, runner);
    }
    for (const ladder of PRICE_LADDERS) {
      const updates = rc[ladder] as number[][] | undefined;
      if (updates !== undefined) applyPriceLadder(runner[ladder], updates);
    }
    for (const ladder of LEVEL_LADDERS) {
      const updates = rc[ladder] as number[][] | undefined;
      if (updates !== undefined) applyLevelLadder(runner[ladder], updates);
    }
    if (rc['ltp'] !== undefined) runner.ltp = isNumber(rc['ltp']) ? rc['ltp'] : null;
    if (rc['tv'] !== undefined) runner.tv = isNumber(rc['tv']) ? rc['tv'] : null;
  }
  return book;
}

/** The best price on one side with the size offered at it: a level ladder's level 0, else the price ladder's best. */
export interface BestPrice {
  price: number;
  size: number;
}

function bestOf(
  prices: Map<number, number>,
  levels: Map<number, readonly [number, number]>,
  better: (a: number, b: number) => boolean,
): BestPrice | null {
  const top = levels.get(0);
  if (top !== undefined) return { price: top[0], size: top[1] };
  let best: BestPrice | null = null;
  for (const [price, size] of prices) {
    if (size > 0 && (best === null || better(price, best.price))) best = { price, size };
  }
  return best;
}

/** The highest price a backer can take now. */
export function bestBack(runner: RunnerBook): BestPrice | null {
  return bestOf(runner.atb, runner.batb, (a, b) => a > b);
}

/** The lowest price a layer can take now. */
export function bestLay(runner: RunnerBook): BestPrice | null {
  return bestOf(runner.atl, runner.batl, (a, b) => a < b);
}
