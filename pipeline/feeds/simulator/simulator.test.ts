import { describe, expect, it } from 'vitest';
import { LEAGUES, type LeagueDef, type RawTick, SPORTSBOOKS } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { type MarketSimulatorOptions, MarketSimulator, type QuoteView, syntheticTeams } from './index.js';
import { americanToProbability } from '../../odds-math/index.js';
import { inSeason, monthOf } from './schedule.js';

const NOVEMBER = Date.UTC(2026, 10, 21, 4, 35);
const JULY = Date.UTC(2026, 6, 15, 12, 0);
const TEAMS = syntheticTeams(LEAGUES);

function simulator(at = NOVEMBER, options: MarketSimulatorOptions = {}): MarketSimulator {
  return new MarketSimulator({ clock: new ManualClock(at), catalog: { teams: TEAMS }, ...options });
}

/** Steps once a second (the feed's default rate of 200 ticks a second) and collects the ticks. */
function run(sim: MarketSimulator, seconds: number, stepMs = 1_000, perSecond = 200): RawTick[] {
  const out: RawTick[] = [];
  let now = sim.now;
  for (let t = 0; t < seconds * 1_000; t += stepMs) {
    now += stepMs;
    for (const tick of sim.step(now, (perSecond * stepMs) / 1_000)) out.push(tick);
  }
  return out;
}

const rowKey = (t: RawTick): string => `${t.book}|${t.bookEventId}|${t.market}|${t.participant ?? ''}|${t.statCategory ?? ''}|${t.outcome}`;

const noVig = (prices: readonly number[]): number[] => {
  const p = prices.map(americanToProbability);
  const sum = p.reduce((a, b) => a + b, 0);
  return p.map((x) => x / sum);
};
const offBy = (v: QuoteView): number => Math.abs((noVig(v.prices)[0] ?? 0) - (v.fair[0] ?? 0));
const evOf = (v: QuoteView): number => Math.max(...v.prices.map((p, i) => (v.fair[i] ?? 0) * (p > 0 ? 1 + p / 100 : 1 + 100 / -p) - 1));
const share = <T>(items: readonly T[], f: (x: T) => boolean): number => items.filter(f).length / items.length;
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('MarketSimulator', () => {
  it('replays identically from the same seed and step times', () => {
    const a = simulator();
    const b = simulator();
    expect(b.snapshot()).toEqual(a.snapshot());
    expect(run(b, 120)).toEqual(run(a, 120));
    expect(b.trueEvents()).toEqual(a.trueEvents());
  });

  it('pins the first quote of the default board', () => {
    expect(simulator().snapshot()[0]).toEqual({
      book: 'pinnacle',
      bookEventId: '1610000348',
      sport: 'hockey',
      league: 'nhl',
      homeTeam: 'Westbrook Lynx',
      awayTeam: 'Ravens',
      startTime: Date.UTC(2026, 10, 21, 16, 40),
      isLive: false,
      market: 'moneyline',
      outcome: 'Westbrook Lynx',
      line: null,
      participant: null,
      statCategory: null,
      // -308 until stop 56: Pinnacle's pre-match margin is now its in-play one narrowed by the
      // recorded books' ratio (books.ts, `LIVE_WIDENING`).
      priceAmerican: -301,
      status: 'open',
      // Last confirmed 39.065 s before the opening, a point of Pinnacle's cadence (confirmations.test.ts);
      // 0.437 s until stop 56, when BetOnline stopped drawing shades and the opening's later draws moved.
      ts: NOVEMBER - 39_065,
      selectionId: null,
      oddsChangedAt: NOVEMBER - 39_065,
      observedAt: NOVEMBER - 39_065,
    });
  });

  it('plays the same games whatever the tick rate', () => {
    const slow = simulator();
    const fast = simulator();
    run(slow, 1_800, 10_000, 5);
    run(fast, 1_800, 10_000, 400);
    expect(slow.trueEvents({ includeEnded: true }).some((e) => e.status === 'final')).toBe(true);
    expect(fast.trueEvents({ includeEnded: true })).toEqual(slow.trueEvents({ includeEnded: true }));
  });

  it('plays the default live moves unless told otherwise, and refuses live moves out of range naming them', () => {
    const a = simulator();
    const b = simulator(NOVEMBER, { liveMoves: { drift: 0.06, jumpsPerMinute: 1 / 10, jumpSize: 0.3 } });
    expect(run(b, 60)).toEqual(run(a, 60));
    expect(() => simulator(NOVEMBER, { liveMoves: { jumpSize: -1 } })).toThrow('liveMoves.jumpSize');
  });

  it('gives a different board for a different seed', () => {
    const a = simulator(NOVEMBER, { seed: 1 });
    const b = simulator(NOVEMBER, { seed: 2 });
    expect(b.snapshot()).not.toEqual(a.snapshot());
    expect(run(b, 10)).not.toEqual(run(a, 10));
  });

  it('lists a default board of 230 events and about 45k odds rows (full catalog, November)', () => {
    const sim = simulator();
    expect(sim.stats()).toEqual({ events: 230, liveEvents: 23, listings: 4650, openRows: 45_708 });
    expect(sim.snapshot()).toHaveLength(45_708);
  });

  it('lists events only for leagues in season, wrap-around seasons included', () => {
    const sim = simulator(JULY);
    const leagues = new Set(sim.trueEvents().map((e) => e.league));
    const expected = LEAGUES.filter((l) => inSeason(l, monthOf(JULY))).map((l) => l.id);
    expect([...leagues].sort()).toEqual([...expected].sort());
    expect(leagues.has('nba')).toBe(false); // October to June
    expect(leagues.has('mlb')).toBe(true);
  });

  it('lists nothing when no league of the catalog is in season', () => {
    const nba = LEAGUES.filter((l) => l.id === 'nba');
    const sim = new MarketSimulator({ clock: new ManualClock(JULY), catalog: { teams: TEAMS, leagues: nba } });
    expect(sim.trueEvents()).toEqual([]);
    expect(sim.snapshot()).toEqual([]);
    expect(sim.step(JULY + 60_000, 1_000)).toEqual([]);
  });

  it('starts with a full board: every listing of every book has open quotes', () => {
    const sim = simulator();
    const board = sim.snapshot();
    const listed = new Set(board.map((t) => `${t.book}|${t.bookEventId}`));
    for (const ev of sim.trueEvents()) {
      for (const [book, listing] of Object.entries(ev.books)) {
        if (ev.isLive && !SPORTSBOOKS.find((b) => b.id === book)?.hasLiveOdds) continue;
        expect(listed.has(`${book}|${listing.bookEventId}`)).toBe(true);
      }
    }
    // As a running book's board: each price last set or confirmed at or before the opening (confirmations.test.ts).
    expect(board.every((t) => t.status === 'open' && t.ts <= NOVEMBER && t.oddsChangedAt === t.ts)).toBe(true);
  });

  it('prices sharp books at a lower overround than soft books', () => {
    const sim = simulator();
    run(sim, 60);
    const twoWay = sim.inspect().filter((v) => v.open && v.market === 'moneyline' && v.prices.length === 2);
    const overround = (v: QuoteView): number => v.prices.reduce((s, p) => s + americanToProbability(p), 0) - 1;
    const sharp = mean(twoWay.filter((v) => v.isSharp).map(overround));
    const soft = mean(twoWay.filter((v) => !v.isSharp).map(overround));
    expect(sharp).toBeGreaterThan(0.015);
    expect(sharp).toBeLessThan(0.035);
    expect(soft).toBeGreaterThan(0.045);
    expect(soft).toBeLessThan(0.09);
  });

  it('offers a Draw in three-way moneylines only', () => {
    const board = simulator()
      .snapshot()
      .filter((t) => t.market === 'moneyline');
    const byListing = new Map<string, RawTick[]>();
    for (const t of board) byListing.set(`${t.book}|${t.bookEventId}`, [...(byListing.get(`${t.book}|${t.bookEventId}`) ?? []), t]);
    const threeWay = new Set(LEAGUES.filter((l) => l.threeWay).map((l) => l.id));
    for (const ticks of byListing.values()) {
      const first = ticks[0];
      if (first === undefined) continue;
      const outcomes = ticks.map((t) => t.outcome).sort();
      if (threeWay.has(first.league)) {
        expect(outcomes).toEqual(['Draw', first.awayTeam, first.homeTeam].sort());
      } else {
        expect(outcomes).toEqual([first.awayTeam, first.homeTeam].sort());
      }
    }
  });

  it('quotes spread outcomes of one book, event and line from each side: home -x, away +x', () => {
    const sim = simulator();
    const ticks = [...sim.snapshot(), ...run(sim, 60)].filter((t) => t.status === 'open');
    const sides = ticks.filter(
      (t) =>
        t.market === 'point_spread' ||
        ((t.market === '1st_half' || t.market === '1st_quarter') && t.outcome !== 'Over' && t.outcome !== 'Under'),
    );
    const latest = new Map<string, RawTick>();
    for (const t of sides) latest.set(rowKey(t), t);
    const groups = new Map<string, RawTick[]>();
    for (const t of latest.values()) {
      const k = `${t.book}|${t.bookEventId}|${t.market}`;
      groups.set(k, [...(groups.get(k) ?? []), t]);
    }
    expect(groups.size).toBeGreaterThan(1_000);
    for (const [, pair] of groups) {
      expect(pair).toHaveLength(2);
      const [a, b] = pair;
      expect(a?.line).toBe(0 - (b?.line ?? NaN));
      expect(new Set(pair.map((t) => t.outcome))).toEqual(new Set([a?.homeTeam, a?.awayTeam]));
    }
  });

  it('suspends the old line before opening the new one when a line moves', () => {
    const sim = simulator();
    const open = new Map<string, number | null>();
    for (const t of sim.snapshot()) open.set(rowKey(t), t.line);
    let moves = 0;
    const twoLinesOpen: RawTick[] = [];
    for (const t of run(sim, 600)) {
      const k = rowKey(t);
      if (t.status === 'suspended') {
        if (open.get(k) === t.line) open.delete(k);
        continue;
      }
      const current = open.get(k);
      // One open line per outcome at a time: a new line must come after the old one's suspension.
      if (current !== undefined && current !== t.line) twoLinesOpen.push(t);
      if (current === undefined && t.line !== null) moves++;
      open.set(k, t.line);
    }
    expect(twoLinesOpen).toEqual([]);
    expect(moves).toBeGreaterThan(500);
  });

  it('locks single markets at their last prices (takes one in five down) and reopens them; a line that moved meanwhile is pulled, so no locked row outlives its quote', () => {
    const sim = simulator(NOVEMBER, { suspensionsPerMinute: 300 });
    const rows = new Map<string, { locked: boolean; price: number | null }>();
    const key = (t: RawTick): string => `${rowKey(t)}|${t.line}`;
    for (const t of sim.snapshot()) rows.set(key(t), { locked: false, price: t.priceAmerican });
    let locks = 0;
    let reopened = 0;
    let lockedPulled = 0;
    for (const t of run(sim, 900)) {
      const k = key(t);
      const row = rows.get(k);
      if (t.status === 'suspended' && t.priceAmerican !== null) {
        // A lock freezes exactly the open price the row last had.
        expect([k, row]).toEqual([k, { locked: false, price: t.priceAmerican }]);
        rows.set(k, { locked: true, price: t.priceAmerican });
        locks++;
      } else if (t.status === 'suspended') {
        if (row?.locked) lockedPulled++;
        rows.delete(k);
      } else {
        if (row?.locked) reopened++;
        rows.set(k, { locked: false, price: t.priceAmerican });
      }
    }
    expect(locks).toBeGreaterThan(500);
    expect(reopened).toBeGreaterThan(100);
    expect(lockedPulled).toBeGreaterThan(10);
    const lockedNow = new Set([...rows].filter(([, r]) => r.locked).map(([k]) => k));
    const suspendedQuotes = new Set(
      sim
        .inspect()
        .filter((v) => v.locked)
        .flatMap((v) =>
          v.outcomes.map(
            (o, i) => `${v.book}|${v.bookEventId}|${v.market}|${v.participant ?? ''}|${v.statCategory ?? ''}|${o}|${v.lines[i]}`,
          ),
        ),
    );
    expect(lockedNow.size).toBeGreaterThan(0);
    expect(lockedNow).toEqual(suspendedQuotes);
  });

  it('pulls every line of books without live odds at kickoff, and never quotes them again', () => {
    const sim = simulator();
    const kickoff = sim.trueEvents().find((e) => e.status === 'upcoming' && e.startTime < NOVEMBER + 2 * 3_600_000);
    expect(kickoff).toBeDefined();
    if (kickoff === undefined) return;
    const noLive = SPORTSBOOKS.filter((b) => !b.hasLiveOdds).map((b) => b.id);
    const ids = new Map(noLive.flatMap((b) => (kickoff.books[b] ? [[b, kickoff.books[b].bookEventId]] : [])));
    expect(ids.size).toBeGreaterThan(0);
    const board = sim.snapshot();
    const ticks = run(sim, (kickoff.startTime - NOVEMBER) / 1_000 + 600, 10_000, 20);
    const open = new Map<string, number | null>();
    for (const t of [...board, ...ticks]) {
      if (ids.get(t.book) !== t.bookEventId) continue;
      if (t.status === 'open') {
        expect(t.ts).toBeLessThan(kickoff.startTime);
        open.set(rowKey(t), t.line);
      } else if (open.get(rowKey(t)) === t.line) open.delete(rowKey(t));
    }
    expect(open.size).toBe(0);
    const live = ticks.filter(
      (t) => t.book === 'pinnacle' && t.bookEventId === kickoff.books['pinnacle']?.bookEventId && t.ts >= kickoff.startTime,
    );
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((t) => t.isLive)).toBe(true);
  });

  it('suspends every line of an ended event and never quotes it again', () => {
    const sim = simulator();
    const first = [...sim.trueEvents()].filter((e) => e.isLive).sort((a, b) => a.endTime - b.endTime)[0];
    expect(first).toBeDefined();
    if (first === undefined) return;
    const ids = new Map(Object.entries(first.books).map(([b, l]) => [b, l.bookEventId]));
    const board = sim.snapshot();
    const ticks = run(sim, (first.endTime - NOVEMBER) / 1_000 + 600, 10_000, 20);
    const open = new Map<string, number | null>();
    let pulled = 0;
    for (const t of [...board, ...ticks]) {
      if (ids.get(t.book) !== t.bookEventId) continue;
      if (t.ts >= first.endTime) {
        expect(t.status).toBe('suspended');
        pulled++;
      }
      if (t.status === 'open') open.set(rowKey(t), t.line);
      else if (open.get(rowKey(t)) === t.line) open.delete(rowKey(t));
    }
    expect(pulled).toBeGreaterThan(0);
    expect(open.size).toBe(0);
    expect(sim.trueEvents().some((e) => e.id === first.id)).toBe(false);
    expect(sim.trueEvents({ includeEnded: true }).find((e) => e.id === first.id)?.status).toBe('final');
    expect(sim.trueEventId('pinnacle', first.books['pinnacle']?.bookEventId ?? '')).toBe(first.id);
  });

  it('keeps a share of soft quotes stale and off the fair price after 10 minutes', () => {
    const sim = simulator();
    run(sim, 600);
    const views = sim.inspect().filter((v) => v.open);
    const soft = views.filter((v) => !v.isSharp);
    const sharp = views.filter((v) => v.isSharp);
    // Sitting 2 % of the time before the game and 10 % in play, about a tenth of the board in play (docs/simulator.md, "Stop 49").
    expect(share(soft, (v) => v.stale)).toBeGreaterThan(0.015);
    expect(share(soft, (v) => v.stale)).toBeLessThan(0.05);
    expect(share(soft, (v) => offBy(v) > 0.02)).toBeGreaterThan(0.03);
    expect(share(soft, (v) => evOf(v) > 0.01)).toBeGreaterThan(0.01);
    expect(share(sharp, (v) => offBy(v) > 0.02)).toBeLessThan(share(soft, (v) => offBy(v) > 0.02) / 3);
    expect(sharp.every((v) => !v.stale)).toBe(true);
  });

  it('never posts a price between -100 and +100', () => {
    const sim = simulator();
    const ticks = [...sim.snapshot(), ...run(sim, 300, 1_000, 1_000)];
    const bad = ticks.filter((t) => {
      const p = t.priceAmerican;
      // A pulled line has no price; an open or locked one a valid price.
      if (t.status === 'suspended' && p === null) return false;
      return p === null || !Number.isInteger(p) || Math.abs(p) < 100 || p === -100;
    });
    expect(ticks.length).toBeGreaterThan(300_000);
    expect(bad).toEqual([]);
  });

  it('uses each book its own event ids, id formats, selection ids and team spellings', () => {
    const sim = simulator();
    const events = sim.trueEvents();
    for (const book of SPORTSBOOKS) {
      const ids = events.flatMap((e) => (e.books[book.id] ? [e.books[book.id]?.bookEventId] : []));
      expect(new Set(ids).size).toBe(ids.length);
    }
    const first = events[0]?.books ?? {};
    expect(first['draftkings']?.bookEventId).toMatch(/^\d{8}$/);
    expect(first['fanduel']?.bookEventId).toMatch(/^34\.\d+$/);
    expect(first['betfair_ex_eu']?.bookEventId).toMatch(/^1\.2\d{8}$/);
    expect(first['pinnacle']?.bookEventId).toMatch(/^\d{10}$/);
    const board = sim.snapshot();
    expect(board.filter((t) => t.book === 'draftkings' || t.book === 'fanduel').every((t) => t.selectionId !== null)).toBe(true);
    expect(board.filter((t) => t.book === 'pinnacle').every((t) => t.selectionId === null)).toBe(true);
    // One spelling per book and team, several per team across books.
    const spelling = new Map<string, Set<string>>();
    for (const e of events) {
      for (const [book, l] of Object.entries(e.books)) {
        const [home, away] = l.flipped ? [l.awayTeam, l.homeTeam] : [l.homeTeam, l.awayTeam];
        for (const [team, name] of [
          [e.homeTeamId, home],
          [e.awayTeamId, away],
        ] as const) {
          const k = `${book}|${team}`;
          spelling.set(k, (spelling.get(k) ?? new Set()).add(name));
        }
      }
    }
    expect([...spelling.values()].every((s) => s.size === 1)).toBe(true);
    const nbaTeam = TEAMS.find((t) => t.leagues.includes('nba'))?.id ?? '';
    const names = new Set([...spelling].filter(([k]) => k.endsWith(`|${nbaTeam}`)).flatMap(([, s]) => [...s]));
    expect(names.size).toBeGreaterThan(2);
  });

  it('offers player props only at books with props, named by player and stat', () => {
    const board = simulator().snapshot();
    const props = board.filter((t) => t.market === 'player_prop');
    const withProps = new Set(SPORTSBOOKS.filter((b) => b.hasPlayerProps).map((b) => b.id));
    const stats = new Map<string, readonly string[]>(LEAGUES.map((l: LeagueDef) => [l.id, l.propStats]));
    expect(props.length).toBeGreaterThan(1_000);
    const odd = props.filter(
      (t) =>
        !withProps.has(t.book) ||
        !stats.get(t.league)?.includes(t.statCategory ?? '') ||
        !/^[A-Z][a-z]+ [A-Z][a-z]+( Jr\.)?$/.test(t.participant ?? '') ||
        (t.outcome !== 'Over' && t.outcome !== 'Under') ||
        (t.line ?? 0) % 1 !== 0.5,
    );
    expect(odd).toEqual([]);
    const teamTotals = board.filter((t) => t.market === 'team_total');
    expect(teamTotals.every((t) => t.participant === t.homeTeam || t.participant === t.awayTeam)).toBe(true);
  });

  it('keeps every in-season league on the board as games end and new ones are listed', () => {
    const sim = simulator();
    const ticks = run(sim, 12 * 3_600, 60_000, 2);
    const count = new Map<string, number>();
    for (const e of sim.trueEvents()) count.set(e.league, (count.get(e.league) ?? 0) + 1);
    expect(sim.trueEvents({ includeEnded: true }).filter((e) => e.status === 'final').length).toBeGreaterThan(10);
    expect(Math.min(...count.values())).toBeGreaterThanOrEqual(10);
    const newest = sim.trueEvents().reduce((a, b) => (a.startTime > b.startTime ? a : b));
    expect(ticks.some((t) => t.bookEventId === newest.books['pinnacle']?.bookEventId)).toBe(true);
  });
});
