import { US_STATES, fillTemplate } from '../../schemas/index.js';
import type { DeepLinkTemplates } from '../../schemas/index.js';

/**
 * `fallback` on the public resolver is user input on a link of our domain: taken as given, it made
 * `/deeplink/x?fallback=https://evil.example` an open redirect. A fallback may only lead where a
 * resolved link could (a sportsbook site of the link templates) or stay on this site.
 */

/** Parses relative paths only: never an origin we answer on, so it cannot match by accident. */
const SELF = 'http://self.invalid';

/**
 * The origins (scheme, host, port) the templates link to. `{state}` may sit in a host
 * (`{state}.sportsbook.fanduel.com`), so every state's host is listed; a host built from any
 * other placeholder depends on the listing and is not listed at all.
 */
export function templateOrigins(templates: DeepLinkTemplates): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const book of templates.values()) {
    for (const template of [book.homepage, book.event, book.market, book.selection]) {
      if (template === undefined) continue;
      for (const state of US_STATES) {
        const a = originOf(template, state, 'a');
        if (a !== null && a === originOf(template, state, 'b')) origins.add(a);
      }
    }
  }
  return origins;
}

function originOf(template: string, state: string, other: string): string | null {
  const values = { event_id: other, selection_id: other, market: other, state, sport: other, league: other, game_id: other };
  const url = fillTemplate(template, values);
  if (url === null) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Where a `fallback` may redirect, normalized, or null when it may not: a path on this site
 * (`/…`), or an http(s) URL without credentials whose origin is one of `origins`. The answer is
 * the parser's serialization, never the raw text, so what the browser follows is what was checked.
 */
export function acceptableFallback(raw: string, origins: ReadonlySet<string>): string | null {
  if (raw.startsWith('/')) {
    const url = parse(raw, SELF);
    // `/.//evil.example` normalizes to the path `//evil.example`, which a browser reads as a host.
    if (url === null || url.origin !== SELF || url.pathname.startsWith('//')) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  }
  const url = parse(raw);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  if (url.username !== '' || url.password !== '' || !origins.has(url.origin)) return null;
  return url.href;
}

function parse(raw: string, base?: string): URL | null {
  try {
    return new URL(raw, base);
  } catch {
    return null;
  }
}
