import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ChdbStore, applyMigrations } from '../pipeline/store/index.js';
import { FuturesNormalizer, FuturesProcessor, futuresEvRow, futuresLatestRow, futuresTickRows } from '../pipeline/futures/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { defaultReferenceBooks } from '../pipeline/opportunities/index.js';
import { LEAGUES, TEAMS } from '../schemas/index.js';

/** The futures queries docs/analysts.md offers run against the real DDL, on rows the pipeline's row builders made. */
it('runs every query of the futures section of docs/analysts.md on simulated futures', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'analysts-futures-'));
  const store = new ChdbStore(join(dir, 'chdb'));
  try {
    await applyMigrations(store);
    const T0 = Date.UTC(2026, 10, 22, 12);
    const sim = new MarketSimulator({ seed: 2, clock: new ManualClock(T0), eventsPerLeague: 1 });
    const normalizer = new FuturesNormalizer({ teams: TEAMS, leagues: LEAGUES });
    const processor = new FuturesProcessor({ referenceBooks: defaultReferenceBooks(), fallbackReferenceBooks: ['betonlineag'] });
    const quotes = sim
      .futures(T0)
      .flatMap((r) => normalizer.handle(r).quote ?? [])
      .filter((q) => q.league === 'nba' || q.league === 'nfl');
    const step = processor.handle(quotes, T0);
    await store.insert('futures_odds_ticks', quotes.flatMap(futuresTickRows));
    await store.insert('futures_odds_latest', step.latest.map(futuresLatestRow));
    await store.insert('futures_ev', step.ev.map(futuresEvRow));

    const md = readFileSync(new URL('../docs/analysts.md', import.meta.url), 'utf8');
    const start = md.indexOf('## Futures');
    const end = md.indexOf('\n## ', start + 1);
    const section = md.slice(start, end < 0 ? undefined : end);
    const queries = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].flatMap((m) =>
      (m[1] ?? '')
        .split(/;\s*\n/)
        .map((q) => q.trim())
        .filter((q) => q.length > 0),
    );
    expect(queries.length).toBe(5);
    const answers: Record<string, unknown>[][] = [];
    for (const q of queries) answers.push(await store.query<Record<string, unknown>>(q));
    // Every query finds rows: holds per board, the title market's 30 teams, a price path, +EV.
    expect(answers.map((a) => a.length > 0)).toEqual([true, true, true, true, true]);
    expect(answers[1]).toHaveLength(30);
    const holds = answers[0] as { sportsbook: string; overround_pct: number; outcomes: number }[];
    const pinnacle = holds.filter((h) => h.sportsbook === 'pinnacle' && Number(h.outcomes) > 2);
    expect(pinnacle.every((h) => Number(h.overround_pct) < 16)).toBe(true);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
