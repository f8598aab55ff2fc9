/**
 * The recorded cricket market through the decoder and the tick mapping, held at checkpoints
 * against an independent fold of the recording: what the ticks leave a board holding for each
 * runner is the recording's best back (net of the market's base rate) and best lay, with the
 * sizes waiting at both. The whole system on the whole recording is test/betfair-replay.e2e.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RawTick } from '../../../schemas/index.js';
import { catalogueOf, readCatalogue } from './catalogue.js';
import { StreamDecoder } from './decoder.js';
import { AWAY, HOME, LadderFold } from './fixtures/ladder-fold.js';
import { ExchangeTickMapper, ticksOfChange } from './ticks.js';

const DATA = join(import.meta.dirname, '../../../../shared/data');
const RECORDING_FILE = join(DATA, 'betfair_stream_1.200806927_cricket_match_odds.jsonl');
const CATALOGUE_FILE = join(DATA, 'betfair_catalogue_1.200806927.json');
const present = existsSync(RECORDING_FILE) && existsSync(CATALOGUE_FILE);
if (!present) console.warn(`skipping the Betfair recording checkpoints: ${RECORDING_FILE} is absent`);

const SIDE = new Map([
  [String(HOME), 'home'],
  [String(AWAY), 'away'],
]);

/** What a board holds from the latest tick of each runner: open rows only, in the fold's format. */
function bettable(latest: ReadonlyMap<string, RawTick>): string[] {
  const out: string[] = [];
  for (const t of latest.values()) {
    const x = t.exchange;
    if (t.status !== 'open' || t.priceAmerican === null || x == null) continue;
    out.push(`${SIDE.get(t.selectionId ?? '')}|${t.priceAmerican}|${x.back}|${x.backSize}|${x.lay}|${x.laySize}`);
  }
  return out.sort();
}

describe.skipIf(!present)('the recorded cricket market, decoded and mapped', () => {
  it('leaves each runner at the recording’s best back (net of 5 %) and best lay, with the sizes at both, at every checkpoint', () => {
    const lines = readFileSync(RECORDING_FILE, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const catalogue = catalogueOf(readCatalogue(JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8'))));
    const decoder = new StreamDecoder();
    const mapper = new ExchangeTickMapper('betfair_ex_eu');
    const fold = new LadderFold();
    const latest = new Map<string, RawTick>();
    const seen = new Set<string>();
    let checkpoints = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      fold.apply(line);
      const out = decoder.receive(line);
      if (out.kind !== 'changes') continue;
      for (const t of ticksOfChange(decoder, mapper, (id) => catalogue.get(id), out.marketIds, out.publishTime).ticks) {
        latest.set(t.selectionId ?? '', t);
        if (t.exchange?.volume != null) expect(t.exchange.volume).toBe(fold.volume(Number(t.selectionId)));
      }
      if (i % 250 === 249 || i === lines.length - 1) {
        const expected = fold.expected().sort();
        expect(bettable(latest), `after line ${i + 1}`).toEqual(expected);
        seen.add(expected.length === 0 ? 'none' : 'priced');
        checkpoints++;
      }
    }
    // The market was priced at some checkpoints and had nothing to back (suspended, closed) at others.
    expect(checkpoints).toBe(Math.ceil(lines.length / 250));
    expect([...seen].sort()).toEqual(['none', 'priced']);
  });
});
