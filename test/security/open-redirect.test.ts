/**
 * The public deep-link resolver redirected to whatever `fallback` named: a link on our domain,
 * `/api/v1/deeplink/anything?fallback=https://evil.example/x`, sent the user to any site with no
 * key needed. Now a fallback may only lead to a sportsbook site the link templates point to or
 * stay on this site; everything else is 400 naming `fallback`, and what the browser is sent is
 * the parsed URL, never the raw text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { LiveBoard } from '../../api/views/board.js';
import { startBareApp } from '../support/raw-http.js';
import type { BareApp } from '../support/raw-http.js';

const event = {
  id: 'nba-20260513-bos-lal',
  sport: 'basketball',
  league: 'nba',
  homeTeamId: 'lal',
  awayTeamId: 'bos',
  startTime: 0,
  isLive: false,
  externalIds: { draftkings: 'dk-100' },
} as unknown as CanonicalEvent;
const row: OddsRow = {
  id: 'dk-row-1',
  eventId: event.id,
  book: 'draftkings',
  market: 'moneyline',
  selection: 'home',
  line: null,
  participant: null,
  statCategory: null,
  priceAmerican: -110,
  priceDecimal: 1.91,
  probability: 0.52,
  ts: 0,
  oddsChangedAt: 0,
  observedAt: 0,
  isLive: false,
  bookEventId: 'dk-100',
  selectionId: 'dk-sel-1',
  isActive: true,
  suspendedSince: null,
};

let api: BareApp;
beforeAll(async () => {
  const board = new LiveBoard();
  board.applyEvent(event);
  board.applyChange({ key: 'k1', eventId: event.id, row, changedAt: 1 });
  api = await startBareApp({}, { board });
});
afterAll(async () => {
  await api.close();
});

interface Answer {
  status: number;
  location: string | null;
  type: string | null;
  body: unknown;
}

/** `query` goes on the wire exactly as written (the attacks depend on their encoding). */
async function resolve(id: string, query: string): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${api.port}/api/v1/deeplink/${id}${query}`, {
    redirect: 'manual',
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  return {
    status: res.status,
    location: res.headers.get('location'),
    type: res.headers.get('x-deep-link-type'),
    body: text === '' ? null : (JSON.parse(text) as unknown),
  };
}

const fallback = (value: string): string => `?fallback=${encodeURIComponent(value)}`;
const refused = {
  status: 400,
  location: null,
  type: null,
  body: {
    error: {
      code: 'invalid_request',
      message:
        "Invalid query parameter 'fallback': must be a path on this site (/…) or an http(s) URL on a sportsbook site of the link templates",
      docs: '/api/v1/docs/errors#invalid_request',
    },
  },
};

describe("a fallback that leads off this site and the sportsbooks' sites is 400, never a redirect", () => {
  const attacks: [string, string][] = [
    ['another site', fallback('https://evil.example/x')],
    ['another site, slashes percent-encoded once more', '?fallback=https:%2F%2Fevil.example/x'],
    ['a scheme-relative URL', fallback('//evil.example/x')],
    ['a backslash the browser reads as a slash', fallback('/\\evil.example/x')],
    ['backslashes only', fallback('\\\\evil.example/x')],
    ['a tab the URL parser drops', fallback('/\t/evil.example/x')],
    ['a dot segment that normalizes to //', fallback('/.//evil.example/x')],
    ['the sportsbook as userinfo', fallback('https://sportsbook.draftkings.com@evil.example/x')],
    ['userinfo before the sportsbook', fallback('https://evil.example@sportsbook.draftkings.com/x')],
    ['the sportsbook as a subdomain of another site', fallback('https://sportsbook.draftkings.com.evil.example/x')],
    ['the sportsbook in the path of another site', fallback('https://evil.example/sportsbook.draftkings.com')],
    ['a trailing dot', fallback('https://sportsbook.draftkings.com./x')],
    ['another port', fallback('https://sportsbook.draftkings.com:8443/x')],
    ['plain http to a book served over https', fallback('http://sportsbook.draftkings.com/x')],
    ['a look-alike IDN host (Cyrillic s)', fallback('https://\u0455portsbook.draftkings.com/x')],
    ['the scheme without slashes', fallback('https:evil.example/x')],
    ['no scheme', fallback('evil.example/x')],
    ['javascript:', fallback('javascript:alert(document.domain)//https://sportsbook.draftkings.com')],
    ['data:', fallback('data:text/html,<script>alert(1)</script>')],
    ['ftp: to a book host', fallback('ftp://sportsbook.draftkings.com/x')],
  ];
  for (const [what, query] of attacks) {
    it(`${what}: ${decodeURIComponent(query)}`, async () => {
      expect(await resolve('nonexistent', query)).toEqual(refused);
    });
  }

  it('is refused even when the id itself resolves (the parameter is checked, not the outcome)', async () => {
    expect(await resolve(row.id, fallback('https://evil.example/x'))).toEqual(refused);
  });
});

describe('legitimate redirects still work', () => {
  it("a known id goes to its book's template URL, fallback or not", async () => {
    const expected = {
      status: 302,
      location: 'https://sportsbook.draftkings.com/event/dk-100?outcomes=dk-sel-1',
      type: 'outcome',
      body: null,
    };
    expect(await resolve(row.id, '')).toEqual(expected);
    expect(await resolve(row.id, fallback('/odds'))).toEqual(expected);
  });

  it('an unknown id without fallback is 404', async () => {
    expect(await resolve('nonexistent', '')).toMatchObject({ status: 404, location: null, body: { error: { code: 'not_found' } } });
  });

  it('a fallback on a template host (any case, any state a template puts in the host) is followed, normalized', async () => {
    const cases: [string, string][] = [
      ['https://sportsbook.draftkings.com/?from=links', 'https://sportsbook.draftkings.com/?from=links'],
      ['HTTPS://SportsBook.DraftKings.COM/Promo', 'https://sportsbook.draftkings.com/Promo'],
      ['https://nj.sportsbook.fanduel.com/', 'https://nj.sportsbook.fanduel.com/'],
      ['https://sports.mi.betmgm.com/en', 'https://sports.mi.betmgm.com/en'],
    ];
    for (const [given, location] of cases) {
      expect(await resolve('nonexistent', fallback(given))).toEqual({ status: 302, location, type: 'fallback', body: null });
    }
  });

  it('a path on this site is followed as a path, dot segments resolved', async () => {
    expect(await resolve('nonexistent', fallback('/odds?league=nba#top'))).toMatchObject({
      status: 302,
      location: '/odds?league=nba#top',
      type: 'fallback',
    });
    expect(await resolve('nonexistent', fallback('/a/../b'))).toMatchObject({ status: 302, location: '/b', type: 'fallback' });
  });
});
