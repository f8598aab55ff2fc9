/**
 * The futures MCP tools (COMPAT §6: get_futures_odds, compare_futures_lines; Pro) through the
 * official SDK client over Streamable HTTP, against the running system and its REST twin.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawFutures } from '../schemas/index.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
const clients: Client[] = [];
const TITLE = 'nfl-2026-27-championship';

const board = (book: string, prices: [string, number][]): RawFutures => ({
  kind: 'futures',
  book,
  bookMarketId: `${book}-sb`,
  sport: 'football',
  league: 'nfl',
  market: 'championship',
  season: '2026-27',
  subject: null,
  title: 'Super Bowl winner',
  settlesAt: Date.UTC(2027, 2, 1) - 1,
  ts: 0,
  selections: prices.map(([name, priceAmerican]) => ({ name, line: null, priceAmerican })),
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-futures-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${c.sys.url}/api/v1/mcp`), { requestInit: { headers: { 'x-api-key': key } } }),
  );
  clients.push(client);
  return client;
}
const call = async (client: Client, name: string, args: Row = {}): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult): string => r.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n');

beforeAll(async () => {
  c = await startConformance();
  await c.push([
    board('pinnacle', [
      ['Kansas City Chiefs', 300],
      ['Buffalo Bills', 400],
      ['Detroit Lions', 450],
      ['Philadelphia Eagles', 500],
    ]),
    board('draftkings', [
      ['Kansas City Chiefs', 260],
      ['Buffalo Bills', 380],
      ['Detroit Lions', 600],
      ['Philadelphia Eagles', 450],
    ]),
    board('fanduel', [
      ['Kansas City Chiefs', 280],
      ['Buffalo Bills', 350],
      ['Detroit Lions', 400],
      ['Philadelphia Eagles', 450],
    ]),
  ]);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await c.sys.close();
});

describe('futures MCP tools', () => {
  it('lists both tools with their schemas', async () => {
    const client = await connect(c.keys.pro);
    const tools = (await client.listTools()).tools;
    const names = tools.map((t) => t.name);
    expect(names).toContain('get_futures_odds');
    expect(names).toContain('compare_futures_lines');
    expect(tools.find((t) => t.name === 'compare_futures_lines')?.inputSchema['required']).toEqual(['future_id']);
  });

  it('lists markets without future_id and serves the REST rows with it', async () => {
    const client = await connect(c.keys.pro);
    const markets = await call(client, 'get_futures_odds', { league: 'nfl' });
    expect(markets.isError).toBeFalsy();
    expect(((markets.structuredContent as Row)['data'] as Row[]).map((m) => m['market_id'])).toEqual([TITLE]);
    const odds = await call(client, 'get_futures_odds', { future_id: TITLE, sportsbook: 'pinnacle,draftkings,fanduel', limit: 100 });
    const rest = await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE}&sportsbook=pinnacle,draftkings,fanduel&limit=100`, c.keys.pro);
    expect((odds.structuredContent as Row)['data']).toEqual(rest.body['data']);
    expect(text(odds)).toContain('12 futures prices');
  });

  it('compares a market across books: best price, fair line and holds', async () => {
    const client = await connect(c.keys.sharp);
    const r = await call(client, 'compare_futures_lines', { future_id: TITLE, sportsbook: 'pinnacle,draftkings,fanduel' });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as Row;
    expect(s['reference_books']).toEqual(['pinnacle']);
    const outcomes = s['outcomes'] as Row[];
    expect(outcomes.map((o) => o['selection'])).toEqual(['Kansas City Chiefs', 'Buffalo Bills', 'Detroit Lions', 'Philadelphia Eagles']);
    expect(outcomes[2]?.['best']).toEqual({ sportsbook: 'draftkings', odds_american: 600, odds_decimal: 7 });
    // Pinnacle's board: implied 0.25, 0.2, 0.181818, 0.166667 (sum 0.798485...); fair by power, solved here.
    const implied = [0.25, 0.2, 1 / 5.5, 1 / 6];
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 200; i++) {
      const k = (lo + hi) / 2;
      if (implied.reduce((a, r) => a + r ** k, 0) > 1) lo = k;
      else hi = k;
    }
    const fair = implied.map((r) => r ** ((lo + hi) / 2));
    expect(outcomes[2]?.['fair_probability']).toBeCloseTo(fair[2] as number, 6);
    const dk = (outcomes[2]?.['prices'] as Row[]).find((p) => p['sportsbook'] === 'draftkings');
    expect(dk?.['ev_percent']).toBeCloseTo(((fair[2] as number) * 7 - 1) * 100, 3);
    const holds = s['holds'] as Row[];
    expect(holds.find((h) => h['sportsbook'] === 'pinnacle')?.['hold_percent']).toBeCloseTo(
      (1 - 1 / implied.reduce((a, b) => a + b, 0)) * 100,
      3,
    );
    expect(text(r)).toContain('favourite Kansas City Chiefs');
  });

  it('refuses keys below Pro, unknown markets and books above the tier as tool errors', async () => {
    const hobby = await connect(c.keys.hobby);
    const refused = await call(hobby, 'get_futures_odds', {});
    expect([refused.isError, text(refused)]).toEqual([true, 'The futures tools need the pro tier or higher; this key is hobby']);
    const pro = await connect(c.keys.pro);
    const unknown = await call(pro, 'compare_futures_lines', { future_id: 'nfl-1999-championship' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain("'nfl-1999-championship'");
    const missing = await call(pro, 'compare_futures_lines', {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('future_id');
    const badType = await call(pro, 'get_futures_odds', { future_type: 'TEAMS' });
    expect([badType.isError, text(badType)]).toEqual([
      true,
      "Invalid argument 'future_type': expected one of TEAM, PLAYER, OVER_UNDER, YES_NO",
    ]);
  });
});
