/**
 * `make screenshots`: each screen of the web UI at desktop and phone width, in the same Debian
 * Chromium the browser tests use, against the real system on the simulator (a throwaway data
 * directory, a fixed seed), into the folder given (docs/screenshots/).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserUnavailable, ensureWebBuilt, launchBrowser } from './support/browser.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

const out = process.argv[2] ?? 'docs/screenshots';
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;

async function main(): Promise<void> {
  const why = browserUnavailable();
  if (why) throw new Error(`cannot take screenshots: ${why}`);
  await ensureWebBuilt();
  mkdirSync(out, { recursive: true });
  const sys = await startTestSystem({ FEED: 'simulator', SIM_SEED: '7', SIM_TICKS_PER_SECOND: '200', SPLITS_INTERVAL_SECONDS: '5' });
  const browser = await launchBrowser();
  try {
    // Let the simulator fill the board and the pipeline find some opportunities.
    await new Promise((r) => setTimeout(r, 8000));
    const events = (await sys.get('/api/v1/events?league=nba&limit=1', sys.demoKeys.pro)).body['data'] as { id: string }[];
    const eventId = events[0]?.id ?? '';
    for (const w of WIDTHS) {
      const context = await browser.newContext({ viewport: w.viewport, isMobile: w.isMobile, deviceScaleFactor: 1, colorScheme: 'light' });
      const page = await context.newPage();
      const shot = async (name: string): Promise<void> => {
        await page.waitForTimeout(700);
        await page.screenshot({ path: join(out, `${name}-${w.name}.png`) });
        process.stdout.write(`wrote ${join(out, `${name}-${w.name}.png`)}\n`);
      };
      await page.goto(`${sys.url}/`);
      await page.getByLabel('API key').waitFor();
      await shot('sign-in');
      await signIn(page, sys.demoKeys.pro);
      await page.locator('td[data-state="open"]').first().waitFor({ timeout: 180_000 });
      await shot('board');
      for (const list of ['ev', 'arbitrage']) {
        await page.goto(`${sys.url}/#/opportunities/${list}`);
        await shot(`opportunities-${list}`);
      }
      await page.goto(`${sys.url}/#/event/${encodeURIComponent(eventId)}`);
      await page.locator('[data-testid="chart"], [data-testid="chart-empty"]').first().waitFor({ timeout: 180_000 });
      await shot('event');
      if (w.name === 'desktop') await logSampleBets(sys);
      await page.goto(`${sys.url}/#/bets`);
      await page.locator('[data-testid="bets-page"], table, [data-testid="bets-empty"]').first().waitFor({ timeout: 60_000 });
      await shot('my-bets');
      // My bets opens no stream: the next sign-in waits for the board's.
      await page.goto(`${sys.url}/#/board`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(page, sys.demoKeys.free);
      await page.goto(`${sys.url}/#/opportunities/ev`);
      await shot('free-locked');
      await context.close();
    }
  } finally {
    await browser.close();
    await sys.close();
  }
}

/**
 * A few bets on the Pro demo account for the My bets screen, copied as the Log bet form copies
 * them: from pre-match +EV opportunities, else from pre-match odds rows (a bet must be placed
 * before its event starts).
 */
async function logSampleBets(sys: TestSystem): Promise<void> {
  const rows = async (path: string): Promise<{ id: string }[]> =>
    sys.get(path, sys.demoKeys.pro).then((r) => r.body['data']) as Promise<{ id: string }[]>;
  const sources = [
    ...(await rows('/api/v1/opportunities/ev?live=false&limit=3')).map((o) => ({ opportunity_id: o.id })),
    ...(await rows('/api/v1/odds?live=false&market=moneyline&limit=3')).map((r) => ({ odds_row_id: r.id })),
  ];
  for (const [i, from] of sources.slice(0, 4).entries()) {
    const r = await sys.post('/api/v1/bets', { ...from, stake: 25 * (i + 1) }, sys.demoKeys.pro);
    if (r.status !== 201) process.stderr.write(`sample bet refused: ${JSON.stringify(r.body)}\n`);
  }
}

async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor({ timeout: 180_000 });
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`screenshots failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
