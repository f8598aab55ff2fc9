import { recordedSnapshots } from '../pipeline/feeds/theoddsapi/index.js';
import { percentile } from '../pipeline/freshness/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { LEAD_BOOK, NO_MOVE, PregameSteps, stepStats } from './consensus-steps.js';
import { FOLLOW_HORIZON_MS, FOLLOW_MARKS_MS, SoftSteps, followedWithin } from './follow-steps.js';
import { Crossings, meanLifetimeMs } from './crossings.js';
import type { BesideLead, FollowChance, LeadReversal, OwnPair } from './follow-steps.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';

/**
 * How often and how far the recorded pre-match moneyline moves, consensus and lead book, per
 * recording and both together (`consensus-steps.ts` says how it is read); then the soft books' own
 * steps and how soon they follow a lead step, and how soon the lead book takes its own steps back
 * (`follow-steps.ts`): what the simulator's pre-game news, following and sharp lean are set from
 * (docs/simulator.md, "Stop 51" to "Stop 53"); and each soft book's follows and its moneyline
 * beside the lead book's, which show BetOnline pricing as LowVig does ("Stop 55"); and how often and
 * how long a soft book's market crosses the lead book's (`lead-crossings.ts`, "Stop 56").
 *
 *   npx tsx bench/pregame-steps.ts
 */

/** LowVig's twin: it prices the moneyline as LowVig does (the per-book table below), so the other soft books' follows are also read without it. */
const TWIN = 'betonlineag';

/** A lead step this large (no-vig probability, points) is one `bench/market-stats.ts` would time the soft books against. */
const JUDGED_MOVE_POINTS = 1.5;

async function main(): Promise<void> {
  const all = new PregameSteps();
  const rows: {
    name: string;
    steps: PregameSteps;
    own: OwnPair[];
    chances: FollowChance[];
    reversals: LeadReversal[];
    beside: BesideLead[];
    crossings: Crossings | null;
  }[] = [];
  for (const r of ODDS_API_RECORDINGS) {
    const path = locateRecording(r.file);
    if (path === null) {
      process.stdout.write(`note: ${missingRecordingNote(r.file)}\n`);
      continue;
    }
    const steps = new PregameSteps();
    const soft = new SoftSteps();
    const crossings = new Crossings();
    for await (const snap of recordedSnapshots(path)) {
      steps.add(snap);
      soft.add(snap);
      crossings.add(snap);
    }
    rows.push({
      name: r.name,
      steps,
      own: soft.ownPairs(),
      chances: soft.followChances(),
      reversals: soft.reversals(),
      beside: soft.besideLead(),
      crossings,
    });
    all.consensus.push(...steps.consensus);
    all.lead.push(...steps.lead);
  }
  rows.push({
    name: 'both',
    steps: all,
    own: rows.flatMap((r) => r.own),
    chances: rows.flatMap((r) => r.chances),
    reversals: rows.flatMap((r) => r.reversals),
    beside: rows.flatMap((r) => r.beside),
    crossings: null,
  });
  const allRuns = rows.flatMap((r) => r.crossings?.allRuns() ?? []);
  const fmt = (x: number | null, d = 3): string => (x === null ? 'n/a' : x.toFixed(d));
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  const stepRow = (name: string, price: string, pairs: readonly { gapMs: number; moveLogit: number }[]): void => {
    const s = stepStats(pairs);
    out(
      `${name} | ${price} | ${s.pairs} | ${fmt(s.gapP50Minutes, 1)} | ${fmt(s.stepShare, 1)} | ${fmt(s.stepsPerHour)} | ` +
        `${fmt(s.sizeP50)} / ${fmt(s.sizeP90)} (${s.sizedSteps})`,
    );
  };
  out('recording | price | pairs | gap p50 min | pairs with a step % | steps / hour | step size p50 / p90 logit (n)');
  for (const { name, steps, own } of rows) {
    stepRow(name, 'consensus', steps.consensus);
    stepRow(name, LEAD_BOOK, steps.lead);
    stepRow(name, 'soft books, own (lead still 6 h)', own);
  }
  out(
    "\nsoft books' own steps by book, both recordings: book | pairs | gap p50 min | pairs with a step % | steps / hour | size p50 / p90 logit (n)",
  );
  const both = rows[rows.length - 1];
  const books = [...new Set(both?.own.map((p) => p.book) ?? [])].sort();
  for (const book of books) stepRow('both', book, both?.own.filter((p) => p.book === book) ?? []);
  const marks = FOLLOW_MARKS_MS.map((ms) => (ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`)).join(' / ');
  out(
    `\nsoft books following a lead step (seen between snapshots <= 30 min apart): recording | steps | chances | followed at the same snapshot % | followed within ${marks} % (Kaplan-Meier)`,
  );
  for (const { name, chances } of rows) {
    for (const [label, list] of [
      ['every lead step', chances],
      [`lead steps >= ${JUDGED_MOVE_POINTS} points`, chances.filter((c) => Math.abs(c.stepPoints) >= JUDGED_MOVE_POINTS)],
      [`every lead step, ${TWIN} left out`, chances.filter((c) => c.book !== TWIN)],
    ] as const) {
      const steps = new Set(list.map((c) => c.step)).size;
      const same = list.length === 0 ? null : (100 * list.filter((c) => c.followedMs === 0).length) / list.length;
      const within = list.length === 0 ? FOLLOW_MARKS_MS.map(() => 'n/a') : followedWithin(list).map((x) => fmt(100 * x, 1));
      out(`${name} | ${label} | ${steps} | ${list.length} | ${fmt(same, 1)} | ${within.join(' / ')}`);
    }
  }
  out(
    `\neach soft book following a lead step, both recordings: book | steps | chances | followed at the same snapshot % | followed within ${marks} % (Kaplan-Meier) | ` +
      `sightings beside ${LEAD_BOOK} | the same no-vig moneyline as ${LEAD_BOOK} % | |logit apart| p50 / p90`,
  );
  const chanceBooks = [...new Set(both?.chances.map((c) => c.book) ?? [])].sort();
  for (const book of chanceBooks) {
    const list = both?.chances.filter((c) => c.book === book) ?? [];
    const same = list.length === 0 ? null : (100 * list.filter((c) => c.followedMs === 0).length) / list.length;
    const within = list.length === 0 ? FOLLOW_MARKS_MS.map(() => 'n/a') : followedWithin(list).map((x) => fmt(100 * x, 1));
    const apart = (both?.beside ?? []).filter((b) => b.book === book).map((b) => Math.abs(b.apartLogit));
    apart.sort((a, b) => a - b);
    const identical = apart.length === 0 ? null : (100 * apart.filter((x) => x <= NO_MOVE).length) / apart.length;
    out(
      `both | ${book} | ${new Set(list.map((c) => c.step)).size} | ${list.length} | ${fmt(same, 1)} | ${within.join(' / ')} | ` +
        `${apart.length} | ${fmt(identical, 1)} | ${fmt(percentile(apart, 0.5))} / ${fmt(percentile(apart, 0.9))}`,
    );
  }
  out(
    `\nthe lead book taking its own step back at least half way (steps as above): recording | steps | taken back within ${marks} % (Kaplan-Meier) | ` +
      'share of the step taken back then p50 / p90 (n) | soft books following within 1 h / 6 h %, steps taken back within 6 h (chances) | the others (chances)',
  );
  for (const { name, chances, reversals } of rows) {
    const within = followedWithin(reversals.map((r) => ({ followedMs: r.revertedMs, watchedMs: r.watchedMs })));
    const back = reversals.flatMap((r) => (r.takenBack === null ? [] : [r.takenBack])).sort((a, b) => a - b);
    const soon = new Set(reversals.filter((r) => r.revertedMs !== null && r.revertedMs <= FOLLOW_HORIZON_MS).map((r) => r.step));
    const follows = (list: readonly FollowChance[]): string =>
      `${followedWithin(list, [3_600_000, FOLLOW_HORIZON_MS])
        .map((x) => fmt(100 * x, 1))
        .join(' / ')} (${list.length})`;
    out(
      `${name} | ${reversals.length} | ${within.map((x) => fmt(100 * x, 1)).join(' / ')} | ` +
        `${fmt(percentile(back, 0.5), 2)} / ${fmt(percentile(back, 0.9), 2)} (${back.length}) | ` +
        `${follows(chances.filter((c) => soon.has(c.step)))} | ${follows(chances.filter((c) => !soon.has(c.step)))}`,
    );
  }
  out(
    `\ntwo books' markets crossing before the game (the same line, an arbitrage between the two; ${TWIN} left out): recording | sightings | crossed (%) | runs | ` +
      'mean lifetime min (exponential, maximum likelihood) | each run: books market, sightings, minutes first to last / to the first sighting not crossed, ended by, best profit %',
  );
  for (const { name, crossings } of rows) {
    if (crossings === null) continue;
    const runs = crossings.allRuns();
    const mean = meanLifetimeMs(runs);
    out(
      `${name} | ${crossings.sightings} | ${crossings.crossed} (${fmt((100 * crossings.crossed) / crossings.sightings)} %) | ${runs.length} | ${fmt(mean === null ? null : mean / 60_000, 1)}`,
    );
    for (const run of runs) {
      const ended = run.endedMs === null ? 'n/a' : (run.endedMs / 60_000).toFixed(0);
      out(
        `  ${run.books.join('+')} ${run.market}, ${run.sightings}, ${((run.lastAt - run.firstAt) / 60_000).toFixed(0)} / ${ended}, ${run.endedBy}, ${run.bestProfit.toFixed(2)}`,
      );
    }
  }
  const pooled = meanLifetimeMs(allRuns);
  out(`both | runs ${allRuns.length} | mean lifetime ${fmt(pooled === null ? null : pooled / 60_000, 1)} min`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`pregame-steps failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
