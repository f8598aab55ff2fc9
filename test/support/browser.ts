import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { builtWebRoot } from '../../runtime/system.js';

/** Debian's Chromium (`make system-deps` installs it); CHROMIUM_PATH names another build. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when they can. */
export function browserUnavailable(): string | null {
  if (!existsSync(CHROMIUM_PATH))
    return `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or run make test as root to have it installed)`;
  return null;
}

/**
 * Headless Chromium as this machine runs it: no sandbox (CI runs as root), and none of the
 * background connections a closed network refuses by the dozen.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: 120_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The web screen, built by `make web-build`; built here when a test runs without it. */
export async function ensureWebBuilt(): Promise<void> {
  if (existsSync(join(builtWebRoot(), 'index.html'))) return;
  const { build } = await import('vite');
  await build({ configFile: join(import.meta.dirname, '../../web/vite.config.ts'), logLevel: 'warn' });
}
