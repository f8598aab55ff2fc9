/**
 * The web screen in a real Chromium (Debian's, driven by playwright-core) against the running
 * system on the fixture board: sign in with a demo key, the board equals /odds, a tick flashes
 * its cell in place, sport filter, the event page's chart, an +EV row appearing and expiring,
 * a reload keeping the session, sign-out clearing it, a free key's two books and locked tabs, and
 * the My bets page (a Pro account's bets and a delete; graded and settled bets with CLV and the
 * cumulative profit chart, from fixed ledger answers as the fixture has no closes; the free tier told it needs Pro).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RawTick } from '../schemas/index.js';
import { browserUnavailable, ensureWebBuilt, launchBrowser } from './support/browser.js';
import { fixtureEventId, startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
const unavailable = browserUnavailable();
if (unavailable) console.warn(`skipping the web screen's browser tests: ${unavailable}`);

let c: Conformance;
let browser: Browser;
let context: BrowserContext;
let page: Page;

function tick(book: string, market: RawTick['market'], outcome: string, price: number, league = 'nba'): RawTick {
  const t = c.ticks.find((x) => x.book === book && x.market === market && x.outcome === outcome && x.league === league);
  if (!t) throw new Error(`fixture has no ${book} ${market} ${outcome}`);
  return { ...t, priceAmerican: price };
}

/**
 * Pinnacle confirming its NFL moneyline at the fixture's prices: the fixture's prices start a
 * minute old, so an opportunity priced against them is stale (and left off the screen's default
 * lists) until the reference confirms its prices again.
 */
const pinnacleConfirmsNfl = (): RawTick[] => [
  tick('pinnacle', 'moneyline', 'Kansas City Chiefs', -140, 'nfl'),
  tick('pinnacle', 'moneyline', 'Buffalo Bills', 128, 'nfl'),
];

async function signIn(p: Page, key: string): Promise<void> {
  await p.goto(`${c.sys.url}/`);
  await p.getByLabel('API key').fill(key);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor({ timeout: 15_000 });
}

/** The page's document, typed just enough for the checks below (the tests compile without the DOM library). */
interface PageDocument {
  document: {
    querySelectorAll(selector: string): { length: number };
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
  };
}

/** Waits until `selector` matches exactly `n` elements (a function, not a string: the page's CSP forbids eval). */
async function waitForCount(p: Page, selector: string, n: number, timeout = 10_000): Promise<void> {
  await p.waitForFunction(
    ([sel, want]) => (globalThis as unknown as PageDocument).document.querySelectorAll(sel).length === want,
    [selector, n] as const,
    { timeout },
  );
}

async function openPrices(p: Page): Promise<string[]> {
  return p.locator('td[data-state="open"]').evaluateAll((cells) => cells.map((td) => td.getAttribute('data-odds-id') ?? '').sort());
}

/** A new browser context signed in with `key`, for a test that must not disturb the shared page. */
async function signedIn(key: string): Promise<Page> {
  const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await p.goto(`${c.sys.url}/`);
  await p.getByLabel('API key').fill(key);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.getByTestId('tier').waitFor({ timeout: 15_000 });
  return p;
}

const noClv = {
  closing_odds_american: null,
  closing_fair_probability: null,
  fair_books: [],
  price_clv_percent: null,
  price_probability_edge: null,
  no_vig_clv_percent: null,
  no_vig_probability_edge: null,
};

/** A bet as /bets presents it, with the fields a test cares about given. */
function bet(over: Row): Row {
  return {
    event_id: 'nba-x',
    sport: 'basketball',
    league: 'nba',
    market: 'moneyline',
    participant: null,
    stat_category: null,
    selection: 'home',
    line: null,
    sportsbook: 'draftkings',
    source_id: null,
    devig_method: 'power',
    sharp_book: null,
    clv: noClv,
    expected_profit: null,
    result: null,
    profit: null,
    ...over,
  };
}

describe.skipIf(unavailable !== null)('the web screen in Chromium', () => {
  beforeAll(async () => {
    await ensureWebBuilt();
    c = await startConformance();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await c?.sys.close();
  });

  it('writes the sign-in help as text: make run in a code element, no markdown backticks', async () => {
    await page.goto(`${c.sys.url}/`);
    const help = page.locator('#signin-help');
    await help.waitFor();
    expect(await help.textContent()).not.toContain('`');
    expect(await help.locator('code').textContent()).toBe('make run');
  });

  it('signs in with a demo key and fills the board with exactly the rows of /odds', async () => {
    await signIn(page, c.sys.demoKeys.pro);
    expect(await page.getByTestId('tier').textContent()).toBe('pro');
    // The status bar says only what it knows: the tier's limit until an answer tells the headroom.
    expect(await page.getByTestId('headroom').textContent()).toMatch(
      /^(Request limit: 300 a minute|Requests left: \d+ \/ 300 this minute)$/,
    );
    await page.locator('select[name="market"]').selectOption('');
    const api = await c.sys.get('/api/v1/odds?limit=1000', c.keys.pro);
    const ids = (api.body['data'] as Row[]).map((r) => String(r['id'])).sort();
    expect(ids.length).toBeGreaterThan(20);
    await waitForCount(page, 'td[data-state="open"]', ids.length);
    expect(await openPrices(page)).toEqual(ids);
    // The key never reaches a script: the cookie is HttpOnly and nothing on the page holds the key.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe('');
    const cookies = await context.cookies();
    expect(cookies.find((k) => k.name === 'odds_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1' });
    expect(await page.content()).not.toContain(c.sys.demoKeys.pro);
  });

  it("heads the board columns with the books' names, not their ids", async () => {
    const books = (await c.sys.get('/api/v1/sportsbooks?limit=200', c.keys.pro)).body['data'] as Row[];
    const nameOf = new Map(books.map((b) => [String(b['id']), String(b['display_name'])]));
    const headers = await page
      .locator('table.odds th[data-book]')
      .evaluateAll((ths) => ths.map((th) => [th.getAttribute('data-book') ?? '', th.textContent ?? '']));
    expect(headers.length).toBeGreaterThan(0);
    expect(headers).toEqual(headers.map(([id]) => [id, nameOf.get(id ?? '')]));
    expect(await page.locator('table.odds th[data-book="draftkings"]').first().textContent()).toBe('DraftKings');
  });

  it('flashes a price within a second of the tick and updates it in place', async () => {
    const rows = (await c.sys.get('/api/v1/odds?league=nba&market=moneyline&sportsbook=draftkings', c.keys.pro)).body['data'] as Row[];
    const id = String(rows.find((r) => r['selection_type'] === 'home')?.['id']);
    const cell = page.locator(`td[data-odds-id="${id}"]`);
    expect(await cell.textContent()).toContain('-125');
    const rowIndex = await cell.evaluate((td) => (td.parentElement as unknown as { rowIndex: number }).rowIndex);
    await c.push([tick('draftkings', 'moneyline', 'Los Angeles Lakers', -160)]);
    const served = Date.now();
    await page.locator(`td.flash[data-odds-id="${id}"]`, { hasText: '-160' }).waitFor({ timeout: 1000 });
    expect(Date.now() - served).toBeLessThan(1000);
    expect(await cell.evaluate((td) => (td.parentElement as unknown as { rowIndex: number }).rowIndex)).toBe(rowIndex);
    expect(await page.locator(`td[data-odds-id="${id}"]`).count()).toBe(1);
  });

  it('greys a suspended price and keeps its last value', async () => {
    const rows = (await c.sys.get('/api/v1/odds?league=nba&market=moneyline&sportsbook=fanduel', c.keys.pro)).body['data'] as Row[];
    const id = String(rows.find((r) => r['selection_type'] === 'away')?.['id']);
    await c.push([{ ...tick('fanduel', 'moneyline', 'Boston Celtics', 100), priceAmerican: null, status: 'suspended' }]);
    const cell = page.locator(`td[data-odds-id="${id}"][data-state="suspended"]`);
    await cell.waitFor({ timeout: 5000 });
    expect(await cell.textContent()).toContain('+100');
    expect(await cell.getAttribute('class')).toContain('suspended');
    await c.push([tick('fanduel', 'moneyline', 'Boston Celtics', 102)]);
    await page.locator(`td[data-odds-id="${id}"][data-state="open"]`).waitFor({ timeout: 5000 });
  });

  it('greys a price the book locked, at its frozen value, until the line reopens', async () => {
    const rows = (await c.sys.get('/api/v1/odds?league=nba&market=moneyline&sportsbook=fanduel', c.keys.pro)).body['data'] as Row[];
    const home = rows.find((r) => r['selection_type'] === 'home');
    const id = String(home?.['id']);
    const price = Number(home?.['odds_american']);
    await c.push([{ ...tick('fanduel', 'moneyline', 'Los Angeles Lakers', price), status: 'suspended' }]);
    const cell = page.locator(`td[data-odds-id="${id}"][data-state="suspended"]`);
    await cell.waitFor({ timeout: 5000 });
    expect(await cell.textContent()).toContain(String(price));
    await c.push([tick('fanduel', 'moneyline', 'Los Angeles Lakers', price)]);
    await page.locator(`td[data-odds-id="${id}"][data-state="open"]`).waitFor({ timeout: 5000 });
  });

  it('filters the board by sport', async () => {
    await page.locator('select[name="sport"]').selectOption('soccer');
    await waitForCount(page, 'article.event', 1, 5000);
    expect(await page.locator('article.event').getAttribute('data-sport')).toBe('soccer');
    expect(await page.locator('article.event h3').textContent()).toBe('Chelsea @ Arsenal');
    await page.locator('select[name="sport"]').selectOption('');
    await waitForCount(page, 'article.event', 3, 5000);
  });

  it('opens an event and draws its line-movement chart from the stored history', async () => {
    await page.getByRole('link', { name: 'Boston Celtics @ Los Angeles Lakers' }).click();
    await page.getByRole('heading', { name: 'Boston Celtics @ Los Angeles Lakers' }).waitFor();
    // It opens on the full-game main market, and its facts line ends with a fact, not a separator.
    const picker = page.getByLabel('Selection');
    expect(await picker.locator('option:checked').textContent()).toMatch(/^moneyline · /);
    expect((await page.getByTestId('event-facts').textContent())?.trim()).toMatch(/^basketball · nba(?: · .*[^·\s])?(?: Live)?$/);
    // The Lakers' moneyline: draftkings moved -125 -> -160 (and fanduel's other side was suspended).
    const value = await picker.locator('option', { hasText: 'moneyline · Los Angeles Lakers' }).getAttribute('value');
    await picker.selectOption(value ?? '');
    const dk = page.locator('[data-testid="chart"] path[data-book="draftkings"]');
    await dk.waitFor({ state: 'attached', timeout: 10_000 });
    await page.waitForFunction(
      () =>
        Number(
          (globalThis as unknown as PageDocument).document
            .querySelector('[data-testid="chart"] path[data-book="draftkings"]')
            ?.getAttribute('data-points'),
        ) >= 2,
      undefined,
      { timeout: 10_000 },
    );
    expect(await dk.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+H[\d.]+V[\d.]+/);
    expect(await page.locator('[data-testid="chart"] path[data-book]').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('table.odds td[data-state="open"]').count()).toBeGreaterThan(10);
  });

  it('shows an +EV row when a book misprices (and the arbitrage with stakes for a typed bankroll), and drops it when the price comes back', async () => {
    await page.goto(`${c.sys.url}/#/opportunities/ev`);
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
    const before = await page.locator('tr[data-opp-id]').count();
    await c.push([...pinnacleConfirmsNfl(), tick('draftkings', 'moneyline', 'Buffalo Bills', 200, 'nfl')]);
    const row = page.locator('tr[data-opp-id]', { hasText: 'Buffalo Bills' }).filter({ hasText: 'draftkings' });
    await row.waitFor({ timeout: 5000 });
    expect(await row.textContent()).toContain('+200');

    // The same misprice is an arbitrage against pinnacle's Chiefs (9.09 %, under the 10 % phantom
    // ceiling that would hide it): stakes follow the typed bankroll.
    await page.getByTestId('tab-arbitrage').click();
    const arbs = (await c.sys.get('/api/v1/opportunities/arbitrage?min_profit=0.5&league=nfl', c.keys.pro)).body['data'] as Row[];
    const arb = arbs.find((a) => (a['legs'] as Row[]).some((l) => l['sportsbook'] === 'draftkings' && l['odds_american'] === 200));
    if (!arb) throw new Error('no arbitrage on the misprice');
    const arbRow = page.locator(`tr[data-opp-id="${String(arb['id'])}"]`);
    await arbRow.waitFor({ timeout: 5000 });
    await page.getByLabel('Bankroll').fill('1000');
    const expected = (arb['legs'] as Row[]).map((l) => ` · stake ${((1000 * (l['stake_percent'] as number)) / 100).toFixed(2)}`);
    expect(await arbRow.getByTestId('stake').allTextContents()).toEqual(expected);
    expect(await arbRow.getByTestId('payout').textContent()).toBe((1000 * (1 + (arb['profit_percent'] as number) / 100)).toFixed(2));
    await page.getByTestId('tab-ev').click();
    await row.waitFor({ timeout: 5000 });

    await c.push([tick('draftkings', 'moneyline', 'Buffalo Bills', 130, 'nfl')]);
    await row.waitFor({ state: 'detached', timeout: 5000 });
    expect(await page.locator('tr[data-opp-id]').count()).toBe(before);
  });

  it('lists only actionable opportunities by default; "show all" brings back the stale and suspicious ones, marked, and takes them away again', async () => {
    await page.goto(`${c.sys.url}/#/opportunities/ev`);
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
    // Bills +400 at draftkings against pinnacle's fresh Chiefs: a fresh +EV row, and an arbitrage far above the
    // 10 % phantom ceiling. Celtics +150 at draftkings: +EV against pinnacle's NBA prices, which nobody confirmed since the start.
    await c.push([
      ...pinnacleConfirmsNfl(),
      tick('draftkings', 'moneyline', 'Buffalo Bills', 400, 'nfl'),
      tick('draftkings', 'moneyline', 'Boston Celtics', 150),
    ]);
    const listed = async (list: string, include: string, book: string, price: number): Promise<Row | undefined> =>
      ((await c.sys.get(`/api/v1/opportunities/${list}?min_profit=0.5${include}`, c.keys.pro)).body['data'] as Row[]).find((o) =>
        (Array.isArray(o['legs']) ? (o['legs'] as Row[]) : [o]).some((l) => l['sportsbook'] === book && l['odds_american'] === price),
      );
    await expect.poll(() => listed('arbitrage', '&include=suspicious', 'draftkings', 400), { timeout: 5000 }).toBeDefined();
    const phantom = (await listed('arbitrage', '&include=suspicious', 'draftkings', 400)) as Row;
    expect(phantom['warnings']).toContain('LIVE_HIGH_PROFIT_SUSPICIOUS');
    expect(await listed('arbitrage', '', 'draftkings', 400)).toBeUndefined();
    const stale = (await listed('ev', '', 'draftkings', 150)) as Row;
    expect(stale['possibly_stale']).toBe(true);
    const fresh = (await listed('ev', '', 'draftkings', 400)) as Row;
    expect(fresh['possibly_stale']).toBe(false);

    const freshRow = page.locator(`tr[data-opp-id="${String(fresh['id'])}"]`);
    const staleRow = page.locator(`tr[data-opp-id="${String(stale['id'])}"]`);
    const phantomRow = page.locator(`tr[data-opp-id="${String(phantom['id'])}"]`);
    const toggle = page.getByLabel('Show all (stale and suspicious too)');
    await freshRow.waitFor({ timeout: 5000 });
    expect(await staleRow.count()).toBe(0);
    expect(await page.locator('tr[data-opp-id][data-doubt]').count()).toBe(0);

    await toggle.check();
    await staleRow.waitFor({ timeout: 5000 });
    expect(await staleRow.getAttribute('data-doubt')).toBe('stale');
    expect(await staleRow.getByTestId('doubt').textContent()).toContain('possibly stale');
    // The toggle holds across the tabs.
    await page.getByTestId('tab-arbitrage').click();
    await phantomRow.waitFor({ timeout: 5000 });
    expect(await phantomRow.getAttribute('data-doubt')).toBe('suspicious');
    expect(await phantomRow.getByTestId('doubt').textContent()).toContain('suspicious');

    await toggle.uncheck();
    await phantomRow.waitFor({ state: 'detached', timeout: 5000 });
    expect(await page.locator('tr[data-opp-id][data-doubt]').count()).toBe(0);
    await page.getByTestId('tab-ev').click();
    await freshRow.waitFor({ timeout: 5000 });
    expect(await staleRow.count()).toBe(0);
    // By EV, highest first, each row with its confidence.
    const evs = (await page.locator('table.opps tbody tr td:nth-child(4)').allTextContents()).map((t) => Number(t.replace('%', '')));
    expect(evs).toEqual([...evs].sort((x, y) => y - x));
    expect(await freshRow.getByTestId('confidence').textContent()).toBe((fresh['confidence_score'] as number).toFixed(0));
    await c.push([tick('draftkings', 'moneyline', 'Buffalo Bills', 130, 'nfl'), tick('draftkings', 'moneyline', 'Boston Celtics', 105)]);
  });

  it('stays signed in across a reload', async () => {
    await page.reload();
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('tier').textContent()).toBe('pro');
  });

  it('signs out: the cookie is gone and the API no longer knows the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect((await context.cookies()).find((k) => k.name === 'odds_session')).toBeUndefined();
    const status = await page.evaluate(async () => (await fetch('/api/v1/odds')).status);
    expect(status).toBe(401);
  });

  it('shows a free key its two books, 60 s late, and locks the opportunity tabs naming the tier', async () => {
    const free = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const p = await free.newPage();
      // The banner's sign-in link: the key fills the form and leaves the address bar at once.
      await p.goto(`${c.sys.url}/#signin=${encodeURIComponent(c.sys.demoKeys.free)}`);
      expect(await p.getByLabel('API key').inputValue()).toBe(c.sys.demoKeys.free);
      expect(new URL(p.url()).hash).toBe('#/board');
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor({ timeout: 15_000 });
      await p.locator('select[name="market"]').selectOption('');
      // The market change reopens the stream: wait for its snapshot (free: the fixture's three events at draftkings and fanduel).
      const rows = (await c.sys.get('/api/v1/odds?limit=1000', c.keys.free)).body['data'] as Row[];
      await waitForCount(p, 'article.event', 3);
      await waitForCount(p, 'td[data-state="open"]', rows.length);
      const columns = await p.locator('article.event').first().locator('thead th').allTextContents();
      expect(columns).toEqual(['Market', 'Selection', 'DraftKings', 'FanDuel']);
      expect(await p.getByTestId('delay').textContent()).toContain('60 s');
      await p.goto(`${c.sys.url}/#/opportunities/ev`);
      for (const [tab, tier] of [
        ['ev', 'pro'],
        ['arbitrage', 'hobby'],
        ['middles', 'pro'],
        ['low_hold', 'hobby'],
      ] as const) {
        expect(await p.getByTestId(`tab-${tab}`).getAttribute('class')).toContain('locked');
        expect(await p.getByTestId(`tab-${tab}`).textContent()).toContain(`${tier}+`);
      }
      expect(await p.getByTestId('locked').textContent()).toContain('needs the pro tier');
    } finally {
      await free.close();
    }
  });

  it('lists the account’s bets newest first, pending before kickoff, and deletes one through the API', async () => {
    const key = c.newKey('pro', 100_000);
    const event = await fixtureEventId(c, 'nba');
    const log = async (selection: string, odds: number, stake: number, agoMs: number): Promise<string> => {
      const r = await c.sys.post(
        '/api/v1/bets',
        {
          event_id: event,
          market: 'moneyline',
          selection,
          sportsbook: 'draftkings',
          odds_american: odds,
          stake,
          placed_at: new Date(c.clock.now() - agoMs).toISOString(),
        },
        key,
      );
      expect(r.status).toBe(201);
      return String((r.body['data'] as Row)['id']);
    };
    const older = await log('home', -125, 20, 120_000);
    const newer = await log('away', 105, 10, 60_000);

    const p = await signedIn(key);
    await p.getByRole('link', { name: 'My bets' }).click();
    await p.locator(`tr[data-bet-id="${newer}"]`).waitFor({ timeout: 10_000 });
    expect(await p.locator('tr[data-bet-id]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-bet-id')))).toEqual([
      newer,
      older,
    ]);
    expect(await p.getByTestId('bet-price').allTextContents()).toEqual(['+105', '-125']);
    expect(await p.getByTestId('bet-status').allTextContents()).toEqual(['pending', 'pending']);
    expect(await p.getByTestId('bet-clv-novig').allTextContents()).toEqual(['–', '–']);
    expect(await p.getByTestId('profit-chart-empty').count()).toBe(1);

    await p.getByRole('button', { name: `Delete bet ${newer}` }).click();
    await p.locator(`tr[data-bet-id="${newer}"]`).waitFor({ state: 'detached', timeout: 10_000 });
    const left = (await c.sys.get('/api/v1/bets', key)).body['data'] as Row[];
    expect(left.map((b) => b['id'])).toEqual([older]);
    await p.context().close();
  });

  it('shows graded and settled bets with raw and no-vig CLV, profit, and cumulative profit against expected profit', async () => {
    // The docs' two-bet example ("The bet ledger", Summary): 50 at +100 won with CLV -4 %, 10 at +150 lost with CLV +25 %.
    const won = bet({
      id: 'bet_won',
      event_start_time: '2026-09-13T17:00:00.000Z',
      placed_at: '2026-09-13T12:00:00.000Z',
      odds_american: 100,
      odds_decimal: 2,
      stake: 50,
      status: 'settled',
      clv: { ...noClv, closing_odds_american: -120, price_clv_percent: 9.0909, no_vig_clv_percent: -4, closing_fair_probability: 0.48 },
      expected_profit: -2,
      result: 'win',
      profit: 50,
    });
    const lost = bet({
      id: 'bet_lost',
      event_start_time: '2026-09-14T17:00:00.000Z',
      placed_at: '2026-09-14T12:00:00.000Z',
      odds_american: 150,
      odds_decimal: 2.5,
      stake: 10,
      status: 'settled',
      clv: { ...noClv, closing_odds_american: 110, price_clv_percent: 19.0476, no_vig_clv_percent: 25, closing_fair_probability: 0.5 },
      expected_profit: 2.5,
      result: 'loss',
      profit: -10,
    });
    const pending = bet({
      id: 'bet_pending',
      event_start_time: '2026-09-20T17:00:00.000Z',
      placed_at: '2026-09-15T12:00:00.000Z',
      odds_american: -110,
      odds_decimal: 1.909091,
      stake: 30,
      status: 'pending',
    });
    const rows = [pending, lost, won];
    const stats = {
      bets: 3,
      stake: 90,
      settled: 2,
      settled_stake: 60,
      profit: 40,
      roi_percent: 66.6667,
      graded: 2,
      average_clv_percent: 10.5,
      average_price_clv_percent: 14.0693,
      beat_close_share: 0.5,
      expected_profit: 0.5,
    };
    const p = await signedIn(c.keys.pro);
    await p.route(/\/api\/v1\/bets\?/, (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ success: true, data: rows, meta: { count: 3, total: 3 } }),
      }),
    );
    await p.route(/\/api\/v1\/bets\/summary/, (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ success: true, data: { total: stats, by_sportsbook: [], by_sport: [], by_market: [], by_month: [] } }),
      }),
    );
    await p.goto(`${c.sys.url}/#/bets`);
    await p.getByTestId('profit-chart').waitFor({ timeout: 10_000 });
    expect(await p.getByTestId('bet-status').allTextContents()).toEqual(['pending', 'settled', 'settled']);
    expect(await p.getByTestId('bet-clv').allTextContents()).toEqual(['–', '19.05%', '9.09%']);
    expect(await p.getByTestId('bet-clv-novig').allTextContents()).toEqual(['–', '25.00%', '-4.00%']);
    expect(await p.getByTestId('bet-result').allTextContents()).toEqual(['–', 'loss', 'win']);
    expect(await p.getByTestId('bet-profit').allTextContents()).toEqual(['–', '-10.00', '50.00']);
    // In the order the events started: +50 then -10 is 40; -2 then +2.5 is 0.5. The pending bet is not on the chart.
    expect(await p.getByTestId('curve-profit').textContent()).toBe('40.00');
    expect(await p.getByTestId('curve-expected').textContent()).toBe('0.50');
    expect(await p.locator('[data-testid="profit-chart"] path[data-line="profit"]').getAttribute('d')).toMatch(
      /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){2}$/,
    );
    expect(await p.getByTestId('bets-totals').textContent()).toContain('ROI66.67%');
    expect(await p.locator('#expected-help').textContent()).toContain('stake × (fair closing probability × decimal price taken − 1)');
    await p.context().close();
  });

  it('tells a free key the ledger needs the Pro tier, with the tab still there', async () => {
    const p = await signedIn(c.keys.free);
    await p.getByRole('link', { name: 'My bets' }).click();
    const locked = p.getByTestId('bets-locked');
    await locked.waitFor({ timeout: 10_000 });
    expect(await locked.textContent()).toBe('The bet ledger needs the pro tier; this key is free.');
    await p.context().close();
  });

  it('logs a bet from the event page at the chosen book, names the refused field, and links to My bets, whose status bar opens no stream', async () => {
    const p = await signedIn(c.keys.pro);
    try {
      await p.goto(`${c.sys.url}/#/event/${encodeURIComponent(await fixtureEventId(c, 'nfl'))}`);
      await p.getByRole('button', { name: 'Log bet' }).click();
      const form = p.getByRole('form', { name: 'Log a bet' });
      await form.locator('select[name="bet_book"]').selectOption('fanduel');
      await form.getByRole('button', { name: 'Log bet' }).click();
      await form.getByTestId('bet-error').waitFor({ timeout: 5000 });
      expect(await form.getByTestId('bet-error').textContent()).toContain('stake');

      await form.getByLabel('Stake').fill('25');
      await form.getByRole('button', { name: 'Log bet' }).click();
      const logged = form.getByTestId('bet-logged');
      await logged.waitFor({ timeout: 5000 });
      const bets = (await c.sys.get('/api/v1/bets', c.keys.pro)).body['data'] as Row[];
      const bet = bets.find((b) => b['stake'] === 25 && b['sportsbook'] === 'fanduel');
      if (!bet) throw new Error('the bet is not in the ledger');
      const row = ((await c.sys.get(`/api/v1/odds?league=nfl&sportsbook=fanduel&limit=100`, c.keys.pro)).body['data'] as Row[]).find(
        (r) => r['id'] === bet['source_id'],
      );
      expect(row?.['odds_american']).toBe(bet['odds_american']);
      expect(await logged.textContent()).toContain(`with fanduel`);

      await logged.getByRole('link', { name: 'My bets' }).click();
      await p.locator('table').filter({ hasText: 'fanduel' }).first().waitFor({ timeout: 10_000 });
      expect(await p.getByTestId('stream-state').textContent()).toContain('Stream: not used on this page');
    } finally {
      await p.context().close();
    }
  });

  it('shows a free key the refusal the API gives when it logs a bet', async () => {
    const p = await signedIn(c.keys.free);
    try {
      const eventId = await fixtureEventId(c, 'nfl');
      await p.goto(`${c.sys.url}/#/event/${encodeURIComponent(eventId)}`);
      await p.getByRole('button', { name: 'Log bet' }).click();
      const form = p.getByRole('form', { name: 'Log a bet' });
      await form.getByLabel('Stake').fill('10');
      await form.getByRole('button', { name: 'Log bet' }).click();
      await form.getByTestId('bet-error').waitFor({ timeout: 5000 });
      const refusal = await c.sys.post(
        '/api/v1/bets',
        { event_id: eventId, market: 'moneyline', selection: 'home', stake: 10 },
        c.keys.free,
      );
      expect(refusal.status).toBe(403);
      expect(await form.getByTestId('bet-error').textContent()).toBe((refusal.body['error'] as Row)['message']);
    } finally {
      await p.context().close();
    }
  });
});
