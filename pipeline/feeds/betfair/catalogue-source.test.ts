import { describe, expect, it } from 'vitest';
import { silentLogger } from '../feed-runtime.js';
import { BettingApiCatalogue } from './catalogue-source.js';

const ANSWER = [
  {
    marketId: '1.1',
    marketName: 'Match Odds',
    marketStartTime: '2022-07-11T11:00:00.000Z',
    description: { marketType: 'MATCH_ODDS' },
    runners: [{ selectionId: 7, runnerName: 'Netherlands', handicap: 0, sortPriority: 1 }],
    eventType: { id: '4', name: 'Cricket' },
    event: { id: '31', name: 'Netherlands v Nepal' },
  },
];

function fakeApi(status = 200): { calls: { url: string; headers: Record<string, string>; body: unknown }[]; fetch: typeof fetch } {
  const calls: { url: string; headers: Record<string, string>; body: unknown }[] = [];
  const fake = (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(url), headers: init?.headers as Record<string, string>, body: JSON.parse(String(init?.body)) });
    return Promise.resolve(new Response(JSON.stringify(status === 200 ? ANSWER : { error: 'x' }), { status }));
  };
  return { calls, fetch: fake as typeof fetch };
}

describe('BettingApiCatalogue', () => {
  it('asks listMarketCatalogue once per market, with the credentials in headers, and keeps the answer', async () => {
    const api = fakeApi();
    const catalogue = new BettingApiCatalogue({
      baseUrl: 'https://betting.test/v1',
      appKey: 'app',
      sessionToken: 'token',
      fetch: api.fetch,
      logger: silentLogger,
    });
    await catalogue.load(['1.1']);
    await catalogue.load(['1.1']);
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]).toMatchObject({
      url: 'https://betting.test/v1/listMarketCatalogue/',
      headers: { 'X-Application': 'app', 'X-Authentication': 'token' },
      body: { filter: { marketIds: ['1.1'] }, maxResults: 1 },
    });
    expect(catalogue.get('1.1')).toMatchObject({
      eventName: 'Netherlands v Nepal',
      eventTypeId: '4',
      marketType: 'MATCH_ODDS',
      runners: [{ selectionId: 7, runnerName: 'Netherlands' }],
    });
  });

  it('asks again for a market it could not name only after the retry interval', async () => {
    const api = fakeApi(503);
    let now = 0;
    const catalogue = new BettingApiCatalogue({
      baseUrl: 'https://b',
      appKey: 'a',
      sessionToken: 't',
      fetch: api.fetch,
      logger: silentLogger,
      retryAfterMs: 1000,
      now: () => now,
    });
    await catalogue.load(['1.1']);
    now = 999;
    await catalogue.load(['1.1']);
    now = 1000;
    await catalogue.load(['1.1']);
    expect(api.calls).toHaveLength(2);
    expect(catalogue.get('1.1')).toBeUndefined();
  });

  it('sends the new session token once the stream has logged in again', async () => {
    const api = fakeApi();
    const catalogue = new BettingApiCatalogue({
      baseUrl: 'https://b',
      appKey: 'a',
      sessionToken: 'old',
      fetch: api.fetch,
      logger: silentLogger,
    });
    catalogue.useSession('new');
    await catalogue.load(['1.1']);
    expect(api.calls[0]?.headers['X-Authentication']).toBe('new');
  });
});
