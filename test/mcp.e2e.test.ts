/**
 * The MCP tool server at /api/v1/mcp, driven by the official SDK client over Streamable HTTP
 * against the running system: handshake, the tool list, every tool against its REST twin,
 * tier refusals, keys, argument errors and protocol errors.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawSplits, RawTick } from '../schemas/index.js';
import { DEVIG_METHODS } from '../pipeline/odds-math/index.js';
import { QUERY_TOOLS } from '../api/mcp/index.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
/** 21 data tools on the query layer, 5 calculators, and the account tool (the fixture has a key store). */
const TOOL_COUNT = 39;
let c: Conformance;
let nbaEvent = '';
let nflEvent = '';
let eplEvent = '';
const clients: Client[] = [];

async function connect(key: string | null, how: 'header' | 'bearer' | 'query' = 'header'): Promise<Client> {
  const url = new URL(`${c.sys.url}/api/v1/mcp`);
  const headers: Record<string, string> = {};
  if (key && how === 'header') headers['x-api-key'] = key;
  if (key && how === 'bearer') headers['authorization'] = `Bearer ${key}`;
  if (key && how === 'query') url.searchParams.set('api_key', key);
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Row = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const text = (r: CallToolResult): string => r.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n');

/** Fields that differ between two reads by construction (emit time, the rate-limit budget). */
function stable(body: Row): Row {
  const { updated_at: _u, ...rest } = body;
  const meta = rest['meta'] as Row | undefined;
  if (meta) {
    const { rate_limit: _r, server_time: _s, ...m } = meta;
    rest['meta'] = m;
  }
  return rest;
}

beforeAll(async () => {
  c = await startConformance();
  const t = c.ticks.find((x) => x.league === 'nfl') as RawTick;
  // An arbitrage and a +EV price on the NFL game (Caesars home +100 against DraftKings away +130 and
  // Pinnacle -140/+128), and a middle on the NBA spread (DraftKings -2.5, Caesars +4.5).
  const nba = c.ticks.find((x) => x.league === 'nba' && x.market === 'point_spread') as RawTick;
  await c.push([
    { ...t, book: 'caesars', bookEventId: 'cz-200', outcome: 'Kansas City Chiefs', priceAmerican: 100 },
    { ...t, book: 'caesars', bookEventId: 'cz-200', outcome: 'Buffalo Bills', priceAmerican: -125 },
    { ...nba, book: 'caesars', bookEventId: 'cz-100', outcome: 'Los Angeles Lakers', line: -4.5, priceAmerican: -110, selectionId: null },
    { ...nba, book: 'caesars', bookEventId: 'cz-100', outcome: 'Boston Celtics', line: 4.5, priceAmerican: -110, selectionId: null },
  ]);
  const events = (await c.sys.get('/api/v1/events', c.keys.enterprise)).body['data'] as Row[];
  nbaEvent = events.find((e) => e['league'] === 'nba')?.['id'] as string;
  nflEvent = events.find((e) => e['league'] === 'nfl')?.['id'] as string;
  eplEvent = events.find((e) => e['league'] === 'epl')?.['id'] as string;
  // Splits on the NBA game from both books, twice (a history), and the live EPL game's score.
  const split = (book: string, bookEventId: string, bets: number): RawSplits => ({
    kind: 'splits',
    book,
    bookEventId,
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime: nba.startTime,
    isLive: false,
    ts: 0,
    sides: [
      { market: 'moneyline', outcome: 'Los Angeles Lakers', betPct: bets, handlePct: 0.4 },
      { market: 'moneyline', outcome: 'Boston Celtics', betPct: 1 - bets, handlePct: 0.6 },
    ],
  });
  await c.push([split('draftkings', 'dk-100', 0.6), split('circa', 'c-100', 0.55)]);
  c.advance(5 * 60_000);
  await c.push([split('draftkings', 'dk-100', 0.7)]);
  const epl = events.find((e) => e['league'] === 'epl') as Row;
  c.sys.gameStates.apply(
    {
      eventId: eplEvent,
      sport: 'soccer',
      league: 'epl',
      homeTeamId: (epl['home'] as Row)['id'] as string,
      awayTeamId: (epl['away'] as Row)['id'] as string,
      status: 'live',
      homeScore: 1,
      awayScore: 0,
      period: '2H',
      clock: '61:00',
      possession: 'home',
      server: null,
      lastPlay: null,
      extras: { corners: [4, 2] },
      primaryBook: 'pinnacle',
      bookCount: 2,
      updatedAt: c.clock.now(),
    },
    eplEvent,
  );
});

afterAll(async () => {
  await Promise.allSettled(clients.map((x) => x.close()));
  await c.sys.close();
});

describe('handshake', () => {
  it("initializes on the SDK's current protocol revision, with a session id, and lists every tool with schemas", async () => {
    const client = await connect(c.keys.pro);
    expect(client.getServerVersion()?.name).toBe('odds-platform');
    expect(client.getServerCapabilities()?.tools).toBeTruthy();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'calculate_arbitrage',
      'calculate_ev',
      'calculate_hold',
      'calculate_kelly',
      'compare_futures_lines',
      'compare_odds',
      'create_alert',
      'delete_alert',
      'devig_odds',
      'find_arbitrage',
      'find_ev_opportunities',
      'find_low_hold',
      'find_middles',
      'get_account_info',
      'get_alert_deliveries',
      'get_alerts',
      'get_best_odds',
      'get_bet_summary',
      'get_bets',
      'get_closing_lines',
      'get_clv',
      'get_event_fair_lines',
      'get_events',
      'get_fair_line',
      'get_freshness',
      'get_futures_odds',
      'get_game_state',
      'get_leagues',
      'get_markets',
      'get_odds',
      'get_odds_batch',
      'get_odds_delta',
      'get_splits',
      'get_splits_history',
      'get_sports',
      'get_sportsbooks',
      'get_teams',
      'log_bet',
      'set_account_commission',
    ]);
    for (const t of tools) {
      expect([t.name, t.inputSchema.type, typeof t.description, t.outputSchema?.type]).toEqual([t.name, 'object', 'string', 'object']);
      expect([t.name, (t.inputSchema as Row)['additionalProperties']]).toEqual([t.name, false]);
    }
    const odds = tools.find((t) => t.name === 'get_odds')?.inputSchema.properties as Record<string, Row>;
    expect((odds['league']?.['items'] as Row)['enum']).toContain('nba');
    expect((odds['sportsbook']?.['items'] as Row)['enum']).toContain('pinnacle');
    expect(odds['limit']).toMatchObject({ maximum: 100, default: 25 });
    expect(odds['api_key']).toBeUndefined();
    // docs/mcp.md documents every tool and every argument.
    const doc = readFileSync(new URL('../docs/mcp.md', import.meta.url), 'utf8');
    for (const t of tools) {
      const section = doc.split(`### \`${t.name}\``)[1]?.split('\n### ')[0] ?? '';
      expect([t.name, section.includes('Example: `')]).toEqual([t.name, true]);
      for (const arg of Object.keys(t.inputSchema.properties ?? {}))
        expect([t.name, arg, section.includes(`| \`${arg}\``)]).toEqual([t.name, arg, true]);
    }
    const devig = tools.find((t) => t.name === 'devig_odds')?.inputSchema.properties as Record<string, Row>;
    expect(devig['method']?.['enum']).toEqual([...DEVIG_METHODS]);
  });

  it("accepts the reference's protocol revision 2025-03-26 and answers tools/list on it", async () => {
    const init = await fetch(`${c.sys.url}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': c.keys.free },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '0' } },
      }),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id') as string;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await init.json()) as Row)['result']).toMatchObject({ protocolVersion: '2025-03-26' });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': c.keys.free,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-03-26',
    };
    const note = await fetch(`${c.sys.url}/api/v1/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(note.status).toBe(202);
    const list = await fetch(`${c.sys.url}/api/v1/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(((((await list.json()) as Row)['result'] as Row)['tools'] as Row[]).length).toBe(TOOL_COUNT);
    // Another key cannot use the session; its owner can end it; then it is gone.
    const stolen = await fetch(`${c.sys.url}/api/v1/mcp`, {
      method: 'POST',
      headers: { ...headers, 'x-api-key': c.keys.pro },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(stolen.status).toBe(404);
    expect((await fetch(`${c.sys.url}/api/v1/mcp`, { method: 'GET', headers })).status).toBe(405);
    expect((await fetch(`${c.sys.url}/api/v1/mcp`, { method: 'DELETE', headers })).status).toBe(200);
    const after = await fetch(`${c.sys.url}/api/v1/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }),
    });
    expect([after.status, (((await after.json()) as Row)['error'] as Row)['code']]).toEqual([404, -32001]);
  });

  it('takes the key as header, bearer or query parameter; without one (or a wrong one) answers HTTP 401 in the error envelope', async () => {
    for (const how of ['header', 'bearer', 'query'] as const) {
      const client = await connect(c.keys.hobby, how);
      expect((await client.listTools()).tools.length).toBe(TOOL_COUNT);
    }
    const variants: Record<string, string>[] = [{}, { 'x-api-key': 'wrong-key' }];
    for (const headers of variants) {
      const r = await fetch(`${c.sys.url}/api/v1/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
        }),
      });
      expect([r.status, (((await r.json()) as Row)['error'] as Row)['code']]).toEqual([401, 'unauthorized']);
    }
    await expect(connect(null)).rejects.toMatchObject({ code: 401 });
  });
});

describe('every tool answers what its REST twin answers', () => {
  let since = '';
  beforeAll(async () => {
    since = ((await c.sys.get('/api/v1/odds?limit=1', c.keys.sharp)).body['meta'] as Row)['next_since'] as string;
    const t = c.ticks.find((x) => x.league === 'nfl' && x.book === 'pinnacle') as RawTick;
    await c.push([{ ...t, priceAmerican: (t.priceAmerican as number) - 5 }]);
  });
  /** Tools that page an object answer themselves (REST answers it whole): their `pagination` is the tool's own. */
  const PAGED_OBJECTS = new Set(['compare_odds', 'get_closing_lines', 'get_game_state']);
  const cases = (): [string, Row, string, ('GET' | 'POST')?, unknown?, string?][] => [
    ['get_sports', {}, '/sports?limit=50'],
    ['get_leagues', { sport: 'basketball', include_empty: true }, '/leagues?sport=basketball&include_empty=true&limit=50'],
    ['get_sportsbooks', { catalog: true }, '/sportsbooks?catalog=true&limit=50'],
    ['get_freshness', { sportsbook: 'pinnacle' }, '/freshness?sportsbook=pinnacle'],
    ['get_markets', {}, '/markets?limit=50'],
    ['get_teams', { q: 'lakers' }, '/teams?q=lakers&limit=25'],
    ['get_events', { sport: ['basketball', 'football'] }, '/events?sport=basketball,football&limit=25'],
    [
      'get_odds',
      { league: 'nba', market: ['moneyline', 'point_spread'], limit: 5 },
      '/odds?league=nba&market=moneyline,point_spread&limit=5',
    ],
    ['get_best_odds', { event: [nbaEvent] }, `/odds/best?event=${nbaEvent}&limit=25`],
    ['compare_odds', { event: nbaEvent, market: 'moneyline' }, `/odds/comparison?event=${nbaEvent}&market=moneyline`],
    [
      'get_odds_batch',
      { event_ids: [nbaEvent, nflEvent, 'no-such-event'], market: ['moneyline'] },
      '/odds/batch',
      'POST',
      { event_ids: [nbaEvent, nflEvent, 'no-such-event'], market: 'moneyline' },
    ],
    ['get_odds_delta', { since, league: ['nfl'] }, `/odds/delta?since=${encodeURIComponent(since)}&league=nfl&limit=100`],
    ['get_closing_lines', { event_id: eplEvent }, `/odds/closing?event_id=${eplEvent}`],
    ['get_clv', { group_by: 'sport', sport: ['soccer', 'basketball'] }, '/historical/clv?group_by=sport&sport=soccer,basketball'],
    ['get_splits', { league: ['nba'] }, '/splits?league=nba&limit=25'],
    ['get_splits_history', { event_id: nbaEvent }, `/splits/history?event_id=${nbaEvent}&limit=50`],
    ['get_game_state', {}, '/gamestate', 'GET', undefined, c.keys.enterprise],
    ['get_game_state', { sport: 'soccer' }, '/gamestate/soccer', 'GET', undefined, c.keys.enterprise],
    ['get_account_info', {}, '/account'],
    ['get_alerts', {}, '/alerts'],
    [
      'get_fair_line',
      { event: nbaEvent, market: 'moneyline', devig_method: 'goto' },
      `/fair?event=${nbaEvent}&market=moneyline&devig_method=goto`,
    ],
    ['get_event_fair_lines', { id: nbaEvent, market: ['main'] }, `/events/${nbaEvent}/fair?market=main`],
    ['find_ev_opportunities', { min_ev: 0 }, '/opportunities/ev?min_ev=0&limit=20'],
    ['find_arbitrage', {}, '/opportunities/arbitrage?limit=20'],
    ['find_middles', {}, '/opportunities/middles?limit=20'],
    ['find_low_hold', { group: 'best' }, '/opportunities/low_hold?group=best&limit=20'],
    ['get_bets', { sportsbook: ['draftkings'] }, '/bets?sportsbook=draftkings&limit=20'],
    ['get_bet_summary', {}, '/bets/summary'],
  ];

  it('structured content equals the REST body (rows, paging, meta), with a short text summary', async () => {
    const sharp = await connect(c.keys.sharp);
    const enterprise = await connect(c.keys.enterprise);
    // Listed first, so the SDK client checks every structured result against the tool's output schema.
    await sharp.listTools();
    await enterprise.listTools();
    const seen = new Set<string>();
    for (const [name, args, path, method = 'GET', body, key = c.keys.sharp] of cases()) {
      seen.add(name);
      const r = await call(key === c.keys.sharp ? sharp : enterprise, name, args);
      expect([name, r.isError ?? false, text(r)]).toEqual([name, false, expect.any(String)]);
      const rest = method === 'POST' ? await c.sys.post(`/api/v1${path}`, body, key) : await c.sys.get(`/api/v1${path}`, key);
      expect([name, rest.status]).toEqual([name, 200]);
      const structured = stable(r.structuredContent as Row);
      if (PAGED_OBJECTS.has(name)) {
        expect([name, structured['pagination']]).toEqual([
          name,
          expect.objectContaining({ offset: 0, has_more: false, next_offset: null }),
        ]);
        delete structured['pagination'];
      }
      expect([name, structured]).toEqual([name, stable(rest.body)]);
      expect(text(r).length).toBeLessThan(400);
      expect(JSON.stringify(r)).not.toContain(key);
      if (name === 'get_odds_delta') expect(((r.structuredContent as Row)['data'] as Row[]).length).toBe(1);
    }
    // Every tool on the query layer has a row here (those that change state, a test of their own).
    expect(QUERY_TOOLS.map((t) => t.name).filter((n) => !seen.has(n) && !WRITES.has(n))).toEqual([]);
  });

  it('log_bet logs a bet in the caller’s ledger, the one GET /bets lists', async () => {
    const client = await connect(c.keys.sharp);
    const odds = (await c.sys.get(`/api/v1/odds?event=${nbaEvent}&market=moneyline&limit=1`, c.keys.sharp)).body['data'] as Row[];
    const r = await call(client, 'log_bet', { odds_row_id: odds[0]?.['id'], stake: 12.5 });
    expect([r.isError ?? false, text(r)]).toEqual([false, expect.stringContaining('Logged bet_')]);
    const logged = (r.structuredContent as Row)['data'] as Row;
    expect(logged).toMatchObject({ event_id: nbaEvent, market: 'moneyline', stake: 12.5, status: 'pending' });
    const listed = (await c.sys.get('/api/v1/bets', c.keys.sharp)).body['data'] as Row[];
    expect(listed.map((b) => b['id'])).toContain(logged['id']);
    expect(((await c.sys.get('/api/v1/bets', c.keys.enterprise)).body['data'] as Row[]).map((b) => b['id'])).not.toContain(logged['id']);
    const refused = await call(client, 'log_bet', {
      event_id: nbaEvent,
      market: 'moneyline',
      selection: 'home',
      sportsbook: 'draftkings',
      stake: 0,
    });
    expect([refused.isError, text(refused)]).toEqual([true, expect.stringContaining('stake')]);
  });

  /** Tools that change state: a second call is not the same answer, so they are compared by what they did. */
  const WRITES = new Set(['log_bet', 'create_alert', 'delete_alert', 'get_alert_deliveries', 'set_account_commission']);

  it('creates, reads and deletes an alert rule as REST does', async () => {
    const sharp = await connect(c.keys.sharp);
    await sharp.listTools();
    const made = await call(sharp, 'create_alert', {
      kind: 'arbitrage',
      webhook_url: 'https://hooks.example.com/odds',
      sport: ['football'],
    });
    expect([made.isError ?? false, text(made)]).toEqual([false, expect.stringContaining('never shown again')]);
    const rule = (made.structuredContent as Row)['data'] as Row;
    expect(rule).toMatchObject({ kind: 'arbitrage', filters: { sport: 'football' }, secret: expect.stringMatching(/^whsec_/) });
    const id = String(rule['id']);
    const { secret: _secret, ...shown } = rule;
    expect((await c.sys.get(`/api/v1/alerts/${id}`, c.keys.sharp)).body['data']).toEqual(shown);
    const log = await call(sharp, 'get_alert_deliveries', { alertId: id });
    expect([log.isError ?? false, (log.structuredContent as Row)['data']]).toEqual([false, []]);
    const line = await call(sharp, 'create_alert', {
      kind: 'key_number',
      webhook_url: 'https://hooks.example.com/odds',
      sport: 'football',
      key_numbers: [3, 7],
    });
    const lineRule = (line.structuredContent as Row)['data'] as Row;
    expect([line.isError ?? false, lineRule['filters']]).toEqual([false, { sport: 'football', key_numbers: [3, 7] }]);
    await call(sharp, 'delete_alert', { alertId: String(lineRule['id']) });
    const badMove = await call(sharp, 'create_alert', {
      kind: 'reverse_line_move',
      webhook_url: 'https://hooks.example.com/odds',
      min_public_pct: 20,
    });
    expect([badMove.isError, text(badMove)]).toEqual([true, expect.stringMatching(/^Invalid argument 'min_public_pct'/)]);
    const bad = await call(sharp, 'create_alert', { kind: 'arbitrage', webhook_url: 'http://hooks.example.com/odds' });
    expect([bad.isError, text(bad)]).toEqual([true, expect.stringMatching(/^Invalid argument 'webhook_url'/)]);
    const gone = await call(sharp, 'delete_alert', { alertId: id });
    expect([gone.isError ?? false, (gone.structuredContent as Row)['data']]).toEqual([false, { id, deleted: true }]);
    expect((await c.sys.get(`/api/v1/alerts/${id}`, c.keys.sharp)).status).toBe(404);
  });

  it('finds the scripted opportunities of every kind the board holds', async () => {
    const client = await connect(c.keys.sharp);
    // The splits history above ages the scripted prices five minutes, past the fixed 60 s threshold
    // five times over (VERY_STALE_ODDS): the default lists leave them out, include=suspicious shows them.
    for (const name of ['find_ev_opportunities', 'find_arbitrage', 'find_middles']) {
      const r = await call(client, name, { include: 'suspicious' });
      expect([name, ((r.structuredContent as Row)['data'] as Row[]).length > 0]).toEqual([name, true]);
    }
  });

  it('caps pages for an agent and says how to get more', async () => {
    const client = await connect(c.keys.sharp);
    const r = await call(client, 'get_odds', { limit: 3 });
    expect(((r.structuredContent as Row)['data'] as Row[]).length).toBe(3);
    expect(text(r)).toMatch(/^3 odds rows of \d+\. More available: call get_odds again with cursor=\S+ \(same filters\)\.$/);
    const next = (r.structuredContent as { pagination: { next_cursor: string } }).pagination.next_cursor;
    const page2 = await call(client, 'get_odds', { limit: 3, cursor: next });
    expect((page2.structuredContent as { pagination: { offset: number } }).pagination.offset).toBe(3);
    const outcomes = await call(client, 'compare_odds', { event: nbaEvent, limit: 2, offset: 1 });
    const all = (await c.sys.get(`/api/v1/odds/comparison?event=${nbaEvent}`, c.keys.sharp)).body['data'] as Row;
    expect(Object.keys((outcomes.structuredContent as Row)['data'] as Row)).toEqual(Object.keys(all).slice(1, 3));
    expect(text(outcomes)).toMatch(/^2 outcomes with \d+ prices in all\. More available: call compare_odds again with offset=3\.$/);
    const big = await call(client, 'get_odds', { limit: 1000 });
    expect([big.isError, text(big)]).toEqual([true, "Invalid argument 'limit': must be <= 100"]);
  });

  it('does the odds math on prices the caller gives', async () => {
    const client = await connect(c.keys.free);
    const devig = await call(client, 'devig_odds', { odds: [-110, -110], method: 'multiplicative' });
    expect(devig.structuredContent).toMatchObject({
      method: 'multiplicative',
      hold_percent: 4.545455,
      outcomes: [{ fair_probability: 0.5, fair_odds_american: 100 }, { fair_probability: 0.5 }],
    });
    const power = await call(client, 'devig_odds', { odds: [1.5, 2.8], format: 'decimal' });
    const fair = (power.structuredContent as { outcomes: { fair_probability: number }[] }).outcomes.map((o) => o.fair_probability);
    expect(fair.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect((await call(client, 'calculate_ev', { odds: 110, fair_probability: 0.5 })).structuredContent).toMatchObject({
      ev_percent: 5,
      kelly_percent: 4.545455,
    });
    expect(
      (await call(client, 'calculate_kelly', { odds: 2.1, format: 'decimal', fair_probability: 0.5, bankroll: 1000, fraction: 0.5 }))
        .structuredContent,
    ).toMatchObject({ kelly_percent: 4.545455, stake: 22.73 });
    expect((await call(client, 'calculate_arbitrage', { odds: [105, 100], bankroll: 100 })).structuredContent).toMatchObject({
      is_arbitrage: true,
      stakes: [49.38, 50.62],
      payout: 101.23,
    });
    expect((await call(client, 'calculate_hold', { odds: [-110, -110] })).structuredContent).toMatchObject({
      hold_percent: 4.545455,
      overround_percent: 4.761905,
    });
    const bad = await call(client, 'calculate_hold', { odds: [-110, 50] });
    expect([bad.isError, text(bad)]).toEqual([
      true,
      "Invalid argument 'odds[1]': American odds must be a finite number <= -100 or >= +100, got 50",
    ]);
  });
  it('answers the new areas with the data the fixture put there', async () => {
    const sharp = await connect(c.keys.sharp);
    const splits = (await call(sharp, 'get_splits', { event: [nbaEvent] })).structuredContent as Row;
    expect((splits['data'] as Row[]).map((x) => x['sportsbook']).sort()).toEqual(['circa', 'draftkings']);
    const history = await call(sharp, 'get_splits_history', { event_id: nbaEvent, limit: 2 });
    expect(((history.structuredContent as Row)['data'] as Row[]).length).toBe(2);
    expect(text(history)).toMatch(/^2 snapshots from \S+ to \S+\. 1 older snapshots in the window: call get_splits_history again/);
    const enterprise = await connect(c.keys.enterprise);
    const games = await call(enterprise, 'get_game_state', { sport: 'soccer' });
    expect((((games.structuredContent as Row)['data'] as Row)['soccer'] as Row)[eplEvent]).toMatchObject({ home_score: 1, away_score: 0 });
    expect(text(games)).toBe('1 live games in 1 sports.');
    const account = await call(sharp, 'get_account_info');
    expect(((account.structuredContent as Row)['data'] as Row)['tier']).toBe('sharp');
    expect(text(account)).toMatch(/^Tier sharp: \d+ requests a minute, up to 999 sportsbooks, 0 s data delay, features: .*\bev\b/);
    // The NFL game goes live: its pre-match prices close and reach the history store.
    const t = c.ticks.find((x) => x.league === 'nfl' && x.book === 'pinnacle') as RawTick;
    await c.push([{ ...t, isLive: true, priceAmerican: -160 }]);
    let rest: Row = {};
    for (let i = 0; i < 300 && Object.keys(((rest['data'] as Row | undefined)?.['books'] ?? {}) as Row).length === 0; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      rest = (await c.sys.get(`/api/v1/odds/closing?event_id=${nflEvent}`, c.keys.sharp)).body;
    }
    const books = Object.keys((rest['data'] as Row)['books'] as Row);
    expect(books.length).toBeGreaterThan(1);
    const all = await call(sharp, 'get_closing_lines', { event_id: nflEvent, limit: 50 });
    expect(stable(all.structuredContent as Row)).toMatchObject({ ...stable(rest), meta: { source: 'closing_odds' } });
    const first = await call(sharp, 'get_closing_lines', { event_id: nflEvent, limit: 1 });
    expect(Object.keys(((first.structuredContent as Row)['data'] as Row)['books'] as Row)).toEqual(books.slice(0, 1));
    expect(text(first)).toMatch(
      new RegExp(
        `^\\d+ closing lines at 1 sportsbooks for ${nflEvent}, captured \\S+\\. More available: call get_closing_lines again with offset=1\\.$`,
      ),
    );
  });
});

describe('tiers, limits and errors', () => {
  it("refuses a tool above a free key's tier with a tool error naming the tier that has it", async () => {
    const client = await connect(c.keys.free);
    const ev = await call(client, 'find_ev_opportunities');
    expect([ev.isError, text(ev)]).toEqual([true, 'The ev feature needs the pro tier or higher; this key is free']);
    const arb = await call(client, 'find_arbitrage');
    expect([arb.isError, text(arb)]).toEqual([true, 'The arbitrage feature needs the hobby tier or higher; this key is free']);
    const gates: [string, Row, string][] = [
      ['get_closing_lines', { event_id: nflEvent }, 'Closing lines needs the pro tier or higher; this key is free'],
      ['get_clv', {}, 'Closing-line value history needs the sharp tier or higher; this key is free'],
      ['get_game_state', {}, 'The gamestate feature needs the enterprise tier or higher; this key is free'],
      ['find_middles', {}, 'The middles feature needs the pro tier or higher; this key is free'],
      ['find_low_hold', {}, 'The arbitrage feature needs the hobby tier or higher; this key is free'],
    ];
    for (const [name, args, message] of gates) {
      const r = await call(client, name, args);
      expect([name, r.isError, text(r)]).toEqual([name, true, message]);
    }
    // As REST's envelope: the code, the caller's tier and the tier that has it, in _meta.error.
    expect(ev._meta?.['error']).toEqual({ code: 'feature_required', tier: 'free', required_tier: 'pro' });
    const clv = await call(client, 'get_clv', {});
    expect(clv._meta?.['error']).toEqual({ code: 'feature_required', tier: 'free', required_tier: 'sharp' });
    const book = await call(client, 'get_odds', { sportsbook: ['pinnacle'] });
    expect([book.isError, text(book)]).toEqual([true, expect.stringMatching(/pinnacle.*needs the pro tier/)]);
    // The free key's rows come from its books only, on its delayed board, as on REST.
    const odds = await call(client, 'get_odds', { limit: 100 });
    const books = new Set(((odds.structuredContent as Row)['data'] as Row[]).map((r) => r['sportsbook']));
    expect([...books].sort()).toEqual(['draftkings', 'fanduel']);
  });

  it('names the argument when arguments are invalid, and keeps unknown tools and malformed JSON-RPC as protocol errors', async () => {
    const client = await connect(c.keys.pro);
    const cases: [string, Row, string][] = [
      ['get_odds', { league: 'no_such_league' }, "Invalid argument 'league[0]': must be one of"],
      ['get_odds', { api_key: 'x' }, "Unknown argument 'api_key'"],
      ['compare_odds', {}, "Missing required argument 'event'"],
      ['get_odds_delta', { since: 'yesterday' }, "Invalid argument 'since'"],
      ['find_ev_opportunities', { min_ev: 'lots' }, "Invalid argument 'min_ev': must be number"],
      [
        'get_odds_batch',
        { event_ids: Array.from({ length: 60 }, (_, i) => `e${i}`) },
        "Invalid argument 'event_ids': 60 events, the pro tier allows at most 50",
      ],
      ['get_closing_lines', {}, "Missing required argument 'event_id'"],
      ['get_closing_lines', { event_id: 'x', sportsbook: ['nope'] }, "Invalid argument 'sportsbook[0]': must be one of"],
      ['get_splits', { signal: ['steam'] }, "Invalid argument 'signal[0]': must be one of rlm, divergence"],
      ['get_splits_history', { event_id: 'x', start_time: 'noon' }, "Invalid argument 'start_time': must be an RFC 3339 date-time"],
      [
        'get_splits_history',
        { event_id: 'x', start_time: '2026-11-22T10:00:00Z', end_time: '2026-11-21T10:00:00Z' },
        "Invalid argument 'start_time': must not be after end_time",
      ],
      ['get_game_state', { sport: 'quidditch' }, "Invalid argument 'sport': must be one of"],
    ];
    for (const [name, args, message] of cases) {
      const r = await call(client, name, args);
      expect([name, r.isError, text(r)]).toEqual([name, true, expect.stringContaining(message)]);
    }
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/-32602.*Unknown tool 'no_such_tool'/);
    await expect(client.callTool({ name: '__proto__', arguments: {} })).rejects.toThrow(/Unknown tool/);
    // Raw POSTs without a session: (body, content-type) -> (HTTP status, JSON-RPC error code).
    const raw: [string, string, number, number][] = [
      ['{"jsonrpc": "2.0", "id": 1, "method": ', 'application/json', 400, -32700],
      ['{"hello": "world"}', 'application/json', 400, -32700],
      ['hello', 'text/plain', 415, -32000],
      [JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }), 'application/json', 400, -32000],
    ];
    for (const [body, type, status, code] of raw) {
      const r = await fetch(`${c.sys.url}/api/v1/mcp`, {
        method: 'POST',
        headers: { 'content-type': type, accept: 'application/json, text/event-stream', 'x-api-key': c.keys.pro },
        body,
      });
      expect([body, r.status, (((await r.json()) as Row)['error'] as Row)['code']]).toEqual([body, status, code]);
    }
  });

  it("counts every request to /mcp against the key's per-minute limit, tool calls included, and refuses past it", async () => {
    const key = c.newKey('hobby', 10);
    // The SDK client's handshake is three requests: initialize, the initialized notification, and
    // a GET for a server stream (answered 405).
    const client = await connect(key);
    await call(client, 'get_sports');
    await call(client, 'calculate_hold', { odds: [-110, -110] });
    await call(client, 'get_sports');
    const rest = await c.sys.get('/api/v1/sports', key);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('3');
    // A tool sees the budget of the request that carried it, as the REST route would.
    const markets = await call(client, 'get_markets');
    expect(((markets.structuredContent as Row)['meta'] as Row)['rate_limit']).toMatchObject({ limit: 10, remaining: 2 });
    for (let i = 0; i < 2; i++) await call(client, 'get_sports');
    await expect(call(client, 'get_sports')).rejects.toMatchObject({ code: 429 });
    expect((await c.sys.get('/api/v1/sports', key)).status).toBe(429);
  });
});
