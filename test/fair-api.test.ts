import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { conformanceForFile, fixtureEventId } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

/**
 * `GET /fair` on the conformance board: the recipe applied and echoed, values recomputed here
 * from the fixture's prices, one-sided markets priced from a stated margin, and the error
 * envelope naming each bad parameter.
 */
type Row = Record<string, unknown>;
let c: Conformance;
let nba: string;
conformanceForFile(async (running) => {
  c = running;
  nba = await fixtureEventId(c, 'nba');
});

const fair = async (query: string, key = c.keys.pro) => c.sys.get(`/api/v1/fair?event=${nba}&${query}`, key);
const outcomes = (body: Row): Row[] => (body['data'] as Row)['outcomes'] as Row[];

describe('GET /fair', () => {
  it('is in the OpenAPI document', async () => {
    const paths = Object.keys(((await c.sys.get('/api/v1/openapi.json')).body['paths'] ?? {}) as Row);
    expect(paths).toContain('/api/v1/fair');
  });

  it("de-vigs the default references' moneyline by the chosen method", async () => {
    // Pinnacle -120/+110, the only configured reference pricing it: implied 0.545455 + 0.476190,
    // normalised 0.533898 / 0.466102.
    const r = await fair('market=moneyline&devig_method=multiplicative');
    expect(r.status).toBe(200);
    const data = r.body['data'] as Row;
    expect(data).toMatchObject({ event_id: nba, market: 'moneyline', line: null });
    expect((data['recipe'] as Row)['devig_method']).toBe('multiplicative');
    expect((data['recipe'] as Row)['weighting']).toBe('equal');
    expect(outcomes(r.body).map((o) => [o['selection'], o['fair_status'], o['fair_probability'], o['fair_price_decimal']])).toEqual([
      ['home', 'two_sided', 0.533898, 1.873],
      ['away', 'two_sided', 0.466102, 2.1455],
    ]);
    const pinnacle = (data['sportsbooks'] as Row[]).find((b) => b['sportsbook'] === 'pinnacle');
    expect(pinnacle).toMatchObject({ sides: 'two_sided', weight: 1, margin_source: 'market' });
  });

  it('gives a band over methods and books that holds the fair probability', async () => {
    const r = await fair('market=total_points');
    expect((r.body['data'] as Row)['line']).toBe(228.5);
    for (const o of outcomes(r.body)) {
      const band = o['band'] as Row;
      expect(band['low']).toBeLessThanOrEqual(o['fair_probability'] as number);
      expect(band['high']).toBeGreaterThanOrEqual(o['fair_probability'] as number);
      expect(band['over_methods']).not.toBeNull();
    }
  });

  it('uses the books the caller names, and says unavailable where none of them prices the market', async () => {
    const none = await fair('market=player_prop&participant=LeBron%20James&stat_category=points&reference_books=pinnacle');
    expect(outcomes(none.body).map((o) => o['fair_status'])).toEqual(['unavailable', 'unavailable']);
    const dk = await fair('market=player_prop&participant=LeBron%20James&stat_category=points&reference_books=draftkings');
    expect(outcomes(dk.body).map((o) => o['fair_status'])).toEqual(['two_sided', 'two_sided']);
  });

  it('prices a one-sided market from a stated margin, never a made-up other side', async () => {
    await c.push([
      {
        sport: 'basketball',
        league: 'nba',
        homeTeam: 'Los Angeles Lakers',
        awayTeam: 'Boston Celtics',
        startTime: c.ticks[0]?.startTime ?? 0,
        isLive: false,
        book: 'pinnacle',
        bookEventId: 'p-100',
        market: 'player_prop',
        outcome: 'Over',
        priceAmerican: -120,
        line: 30.5,
        participant: 'Anthony Davis',
        statCategory: 'points',
        status: 'open',
        ts: 0,
        selectionId: null,
      },
    ]);
    // -120 implies 0.545455; with the default 5 % margin 0.519481.
    const r = await fair('market=player_prop&participant=Anthony%20Davis&stat_category=points');
    expect(r.status).toBe(200);
    const [over, under] = outcomes(r.body);
    expect(over).toMatchObject({
      selection: 'over',
      fair_status: 'one_sided_assumed_margin',
      fair_probability: 0.519481,
      assumed_margin: 5,
    });
    expect(under).toMatchObject({ selection: 'under', fair_status: 'unavailable', fair_probability: null, band: null });
    const caller = await fair('market=player_prop&participant=Anthony%20Davis&stat_category=points&assumed_margin=8');
    expect(outcomes(caller.body)[0]).toMatchObject({ fair_probability: Math.round((120 / 220 / 1.08) * 1e6) / 1e6, assumed_margin: 8 });
  });

  it('names each bad parameter in the error envelope', async () => {
    for (const [query, field] of [
      ['market=moneyline&devig_method=magic', 'devig_method'],
      ['market=moneyline&weighting=heavy', 'weighting'],
      ['market=moneyline&reference_books=nope', 'reference_books'],
      ['market=moneyline&assumed_margin=90', 'assumed_margin'],
      ['market=nonsense', 'market'],
      ['market=player_prop', 'participant'],
      ['line=abc&market=point_spread', 'line'],
    ] as const) {
      const r = await fair(query);
      expect(r.status, query).toBe(400);
      expect(((r.body['error'] as Row)['message'] as string).includes(field), query).toBe(true);
    }
    const missing = await c.sys.get('/api/v1/fair?market=moneyline', c.keys.pro);
    expect(missing.status).toBe(400);
    expect(((missing.body['error'] as Row)['message'] as string).includes('event')).toBe(true);
  });

  it('is 404 for an unknown event and 403 below the pro tier', async () => {
    expect((await c.sys.get('/api/v1/fair?event=nope&market=moneyline', c.keys.pro)).status).toBe(404);
    const hobby = await fair('market=moneyline', c.keys.hobby);
    expect(hobby.status).toBe(403);
    expect((hobby.body['error'] as Row)['message']).toBe('The fair-line recipe needs the pro tier or higher; this key is hobby');
  });
});

describe('GET /events/{id}/fair', () => {
  const eventFair = async (query = '', key = c.keys.pro) => c.sys.get(`/api/v1/events/${nba}/fair?${query}`, key);
  const marketsOf = (body: Row): Row[] => (body['data'] as Row)['markets'] as Row[];

  it("prices each of the event's game markets at its main line exactly as /fair prices it alone", async () => {
    const r = await eventFair('devig_method=shin');
    expect(r.status).toBe(200);
    const data = r.body['data'] as Row;
    expect(data['event_id']).toBe(nba);
    expect((data['recipe'] as Row)['devig_method']).toBe('shin');
    const markets = marketsOf(r.body);
    expect(markets.map((m) => m['market'])).toEqual(['moneyline', 'point_spread', 'total_points']);
    for (const m of markets) {
      const alone = (await fair(`market=${String(m['market'])}&devig_method=shin`)).body['data'] as Row;
      const { event_id: _event, recipe: _recipe, ...market } = alone;
      expect(m).toEqual(market);
    }
    expect(markets.every((m) => (m['outcomes'] as Row[]).every((o) => o['band'] !== null))).toBe(true);
  });

  it('leaves props out unless market names them, one entry per player and stat', async () => {
    expect(marketsOf((await eventFair()).body).some((m) => m['market'] === 'player_prop')).toBe(false);
    const props = marketsOf((await eventFair('market=props&reference_books=draftkings')).body);
    expect(props.length).toBeGreaterThan(0);
    expect(props.every((m) => m['market'] === 'player_prop')).toBe(true);
    const keys = props.map((m) => `${String(m['participant'])}|${String(m['stat_category'])}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(props.find((m) => m['participant'] === 'LeBron James' && m['stat_category'] === 'points')).toBeDefined();
  });

  it('names a bad parameter, is 404 for an unknown event and 403 below the pro tier', async () => {
    for (const [query, field] of [
      ['market=spreads', 'market'],
      ['devig_method=magic', 'devig_method'],
      ['reference_books=nope', 'reference_books'],
    ] as const) {
      const r = await eventFair(query);
      expect(r.status, query).toBe(400);
      expect(((r.body['error'] as Row)['message'] as string).includes(field), query).toBe(true);
    }
    expect((await c.sys.get('/api/v1/events/nope/fair', c.keys.pro)).status).toBe(404);
    const hobby = await eventFair('', c.keys.hobby);
    expect(hobby.status).toBe(403);
    expect((hobby.body['error'] as Row)['message']).toBe('The fair-line recipe needs the pro tier or higher; this key is hobby');
  });
});

describe('GET /opportunities/ev with a recipe', () => {
  it('re-prices each row by the recipe and says which recipe priced it, with the band', async () => {
    const plain = await c.sys.get('/api/v1/opportunities/ev?min_ev=-100', c.keys.pro);
    const rows = plain.body['data'] as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => !('recipe' in r))).toBe(true);
    const r = await c.sys.get('/api/v1/opportunities/ev?min_ev=-100&reference_books=pinnacle&devig_method=multiplicative', c.keys.pro);
    expect(r.status).toBe(200);
    const priced = r.body['data'] as Row[];
    expect(priced.map((x) => x['id'])).toEqual(rows.map((x) => x['id']));
    for (const row of priced) {
      expect(row['recipe']).toEqual({
        sportsbooks: ['pinnacle'],
        weighting: 'equal',
        devig_method: 'multiplicative',
        assumed_margin: null,
      });
      expect(row).toHaveProperty('fair_band');
    }
    // An NBA moneyline row is priced as /fair prices that market with the same recipe.
    const nbaRow = priced.find((x) => x['event_id'] === nba && x['market'] === 'moneyline');
    expect(nbaRow).toBeDefined();
    if (nbaRow) {
      const fairBody = (await fair('market=moneyline&reference_books=pinnacle&devig_method=multiplicative')).body;
      const outcome = outcomes(fairBody).find((o) => o['selection'] === nbaRow['selection']);
      expect(nbaRow['recipe_fair_probability']).toBe(outcome?.['fair_probability']);
      expect(nbaRow['fair_status']).toBe('two_sided');
    }
  });

  it('takes the recipe-only methods efficient_shin and goto: the rows re-priced by them, the list itself on power', async () => {
    const plain = (await c.sys.get('/api/v1/opportunities/ev?min_ev=-100', c.keys.pro)).body['data'] as Row[];
    for (const method of ['efficient_shin', 'goto'] as const) {
      for (const recipe of ['', '&reference_books=pinnacle']) {
        const r = await c.sys.get(`/api/v1/opportunities/ev?min_ev=-100&devig_method=${method}${recipe}`, c.keys.pro);
        expect(r.status, method + recipe).toBe(200);
        const priced = r.body['data'] as Row[];
        expect(priced.map((x) => [x['id'], x['devig_method'], x['ev_percentage']])).toEqual(
          plain.map((x) => [x['id'], x['devig_method'], x['ev_percentage']]),
        );
        for (const row of priced) expect((row['recipe'] as Row)['devig_method']).toBe(method);
        const nbaRow = priced.find((x) => x['event_id'] === nba && x['market'] === 'moneyline');
        if (!nbaRow) throw new Error('no NBA moneyline +EV row');
        const alone = outcomes((await fair(`market=moneyline&devig_method=${method}${recipe}`)).body).find(
          (o) => o['selection'] === nbaRow['selection'],
        );
        expect(nbaRow['recipe_fair_probability']).toBe(alone?.['fair_probability']);
        expect(nbaRow['fair_status']).toBe('two_sided');
      }
    }
    // Each method prices differently from power (and from the other).
    const probabilityOf = async (method: string): Promise<unknown> =>
      (
        (await c.sys.get(`/api/v1/opportunities/ev?min_ev=-100&devig_method=${method}&reference_books=pinnacle`, c.keys.pro)).body[
          'data'
        ] as Row[]
      )
        .filter((x) => x['event_id'] === nba && x['market'] === 'moneyline')
        .map((x) => x['recipe_fair_probability']);
    const [power, shin, goto] = await Promise.all(['power', 'efficient_shin', 'goto'].map(probabilityOf));
    expect(new Set([JSON.stringify(power), JSON.stringify(shin), JSON.stringify(goto)]).size).toBe(3);
  });

  it('answers find_ev_opportunities on MCP with a recipe-only method as REST does', async () => {
    const client = new Client({ name: 'fair-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${c.sys.url}/api/v1/mcp`), { requestInit: { headers: { 'x-api-key': c.keys.pro } } }),
    );
    try {
      const args = { min_ev: -100, devig_method: 'goto', reference_books: 'pinnacle', limit: 100 };
      const result = (await client.callTool({ name: 'find_ev_opportunities', arguments: args })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const rest = await c.sys.get('/api/v1/opportunities/ev?min_ev=-100&devig_method=goto&reference_books=pinnacle&limit=100', c.keys.pro);
      const pick = (rows: Row[]): unknown[] => rows.map((x) => [x['id'], x['recipe'], x['recipe_fair_probability'], x['recipe_ev']]);
      expect(pick((result.structuredContent as Row)['data'] as Row[])).toEqual(pick(rest.body['data'] as Row[]));
    } finally {
      await client.close();
    }
  });

  it('names a bad recipe parameter, and refuses worst_case as a recipe method', async () => {
    for (const [query, field] of [
      ['weighting=heavy', 'weighting'],
      ['reference_books=nope', 'reference_books'],
      ['weighting=equal&devig_method=worst_case', 'devig_method'],
    ] as const) {
      const r = await c.sys.get(`/api/v1/opportunities/ev?${query}`, c.keys.pro);
      expect(r.status, query).toBe(400);
      expect(((r.body['error'] as Row)['message'] as string).includes(field), query).toBe(true);
    }
  });
});
