/**
 * Bug: the event page threw its chart away whenever it refetched the history, and it refetched
 * whenever the list of books on the line changed, order included. Opening an event changes the
 * stream's filter, so the board's rows are replaced by the event's snapshot in another order: the
 * chart was drawn, replaced by "Loading history…", then drawn again, and a reader (or the web
 * screen's browser test, which failed CI once on it) could catch it gone. Now the history is
 * fetched again only when the set of books changes, and the drawn chart stays until the new
 * answer replaces it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserUnavailable, ensureWebBuilt, launchBrowser } from './support/browser.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

const unavailable = browserUnavailable();
if (unavailable) console.warn(`skipping the event chart's browser test: ${unavailable}`);

/** Just enough of the page's globals for the observer below (the tests compile without the DOM library). */
interface PageGlobals {
  document: { querySelector(selector: string): unknown; body: unknown };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { childList: boolean; subtree: boolean }): void };
  chartWentAway?: boolean;
}

let c: Conformance;
let browser: Browser;
let page: Page;

describe.skipIf(unavailable !== null)("the event page's line-movement chart", () => {
  beforeAll(async () => {
    await ensureWebBuilt();
    c = await startConformance();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await c?.sys.close();
  });

  it('stays drawn while a book joins the line and the history is fetched again', async () => {
    await page.goto(`${c.sys.url}/`);
    await page.getByLabel('API key').fill(c.sys.demoKeys.sharp);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Boston Celtics @ Los Angeles Lakers' }).click();
    // The page opens on a moneyline side; six fixture books price it, caesars does not.
    await page.locator('[data-testid="chart"] path[data-book="draftkings"]').waitFor({ state: 'attached', timeout: 10_000 });
    await page.waitForTimeout(500);
    expect(await page.locator('[data-testid="chart"] path[data-book]').count()).toBe(6);

    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      g.chartWentAway = false;
      new g.MutationObserver(() => {
        if (g.document.querySelector('[data-testid="chart"]') === null) g.chartWentAway = true;
      }).observe(g.document.body, { childList: true, subtree: true });
    });
    const refetched = page.waitForResponse((r) => r.url().includes('/history?') && r.url().includes('caesars'), { timeout: 10_000 });
    // Caesars opens the moneyline: both sides, so whichever side the page opened on gains a book.
    const caesars = c.ticks
      .filter((t) => t.book === 'draftkings' && t.market === 'moneyline' && t.league === 'nba')
      .map((t) => ({ ...t, book: 'caesars', bookEventId: 'cz-100', priceAmerican: t.outcome === 'Los Angeles Lakers' ? -124 : 104 }));
    expect(caesars).toHaveLength(2);
    await c.push(caesars);
    await refetched;
    await page.locator('[data-testid="chart"] path[data-book="caesars"]').waitFor({ state: 'attached', timeout: 5000 });
    await page.waitForTimeout(300);

    expect(await page.locator('[data-testid="chart"] path[data-book]').count()).toBe(7);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).chartWentAway)).toBe(false);
  });
});
