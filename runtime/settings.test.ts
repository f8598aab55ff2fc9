import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { readmeWithSettings } from './render-settings.js';
import { SETTINGS, Settings } from './settings.js';

describe('the configuration table', () => {
  it('is what the README shows (run `make config-doc` after changing runtime/settings.ts)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toBe(readmeWithSettings(readme));
  });

  it('declares every variable the code reads, once', () => {
    const names = SETTINGS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    const source = ['config.ts', 'settings.ts'].map((f) => readFileSync(new URL(f, import.meta.url), 'utf8')).join('\n');
    const read = new Set([...source.matchAll(/s\.(?:string|int|list|optional|isSet|raw)\('([A-Z_]+)'\)/g)].map((m) => m[1]));
    for (const name of read) expect(names).toContain(name);
  });

  it('gives every default when the environment is empty', () => {
    const c = loadConfig({});
    expect([c.role, c.port, c.host, c.logLevel, c.feed, c.sink, c.deltaWindow, c.kafkaBrokers, c.clickhouse]).toEqual([
      'all',
      8080,
      '127.0.0.1',
      'info',
      'simulator',
      { batchRows: 20_000, maxWaitMs: 1000, retries: 8 },
      { maxChanges: 500_000, maxAgeMs: 900_000 },
      null,
      null,
    ]);
  });

  it('refuses values out of bounds, naming the variable and the bound', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT must be an integer from 0 to 65535, got "70000"');
    expect(() => loadConfig({ SINK_BATCH_ROWS: '1e3' })).toThrow('SINK_BATCH_ROWS must be an integer');
    expect(() => loadConfig({ REPLAY_SPEED: '-2' })).toThrow('REPLAY_SPEED must be a positive number or "max"');
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow('REDIS_URL must be a redis:// or rediss:// URL');
    expect(() => loadConfig({ CLICKHOUSE_URL: 'localhost:8123' })).toThrow('CLICKHOUSE_URL must be a http:// or https:// URL');
    expect(() => loadConfig({ ROLE: 'api' })).toThrow('ROLE=api needs KAFKA_BROKERS');
    expect(() => loadConfig({ METRICS_PORT: '8080' })).toThrow('METRICS_PORT must differ from PORT');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be 16+ characters, got "<hidden>"');
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'https://odds.example.com/api' })).toThrow('PUBLIC_BASE_URL must be an origin');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://odds.example.com' }).publicBaseUrl).toBe('https://odds.example.com');
  });

  it('asks for Betfair credentials with FEED=betfair and a catalog book for its prices', () => {
    expect(() => loadConfig({ FEED: 'betfair', BETFAIR_APP_KEY: 'app' })).toThrow(
      'FEED=betfair needs BETFAIR_APP_KEY and either BETFAIR_SESSION_TOKEN or a certificate login (BETFAIR_USERNAME, BETFAIR_PASSWORD, BETFAIR_CERT_FILE, BETFAIR_KEY_FILE)',
    );
    // The certificate login's settings go together, and its files must be readable.
    expect(() => loadConfig({ FEED: 'betfair', BETFAIR_APP_KEY: 'app', BETFAIR_USERNAME: 'punter', BETFAIR_PASSWORD: 'pass' })).toThrow(
      'the Betfair certificate login needs BETFAIR_CERT_FILE, BETFAIR_KEY_FILE too',
    );
    expect(() =>
      loadConfig({
        BETFAIR_USERNAME: 'punter',
        BETFAIR_PASSWORD: 'pass',
        BETFAIR_CERT_FILE: '/nonexistent/client.crt',
        BETFAIR_KEY_FILE: 'package.json',
      }),
    ).toThrow('BETFAIR_CERT_FILE names a file that cannot be read (ENOENT)');
    const login = loadConfig({
      FEED: 'betfair',
      BETFAIR_APP_KEY: 'app',
      BETFAIR_USERNAME: 'punter',
      BETFAIR_PASSWORD: 'pass',
      BETFAIR_CERT_FILE: 'package.json',
      BETFAIR_KEY_FILE: 'package.json',
    });
    expect(login.betfair).toMatchObject({
      sessionToken: null,
      certLogin: { url: 'https://identitysso-cert.betfair.com/api/certlogin', username: 'punter', certFile: 'package.json' },
    });
    expect(() => loadConfig({ BETFAIR_BOOK: 'constructor' })).toThrow(
      'BETFAIR_BOOK must be a sportsbook id of the catalog, got "constructor"',
    );
    const c = loadConfig({ FEED: 'betfair', BETFAIR_APP_KEY: 'app', BETFAIR_SESSION_TOKEN: 'token', BETFAIR_COUNTRIES: 'GB,IE' });
    expect(c.betfair).toMatchObject({
      host: 'stream-api.betfair.com',
      port: 443,
      eventTypeIds: ['1', '4'],
      marketTypes: ['MATCH_ODDS'],
      countryCodes: ['GB', 'IE'],
      book: 'betfair_ex_eu',
    });
  });

  it('reads the margin assumed on one-sided fair prices as a percentage from 0 to 50, 5 by default', () => {
    expect(loadConfig({}).oneSidedMargin).toBe(0.05);
    expect(loadConfig({ ONE_SIDED_MARGIN_PERCENT: '7.5' }).oneSidedMargin).toBe(0.075);
    expect(() => loadConfig({ ONE_SIDED_MARGIN_PERCENT: '60' })).toThrow('ONE_SIDED_MARGIN_PERCENT must be a number from 0 to 50');
  });

  it('never echoes a secret it refuses', () => {
    expect(() => new Settings({ API_KEYS: 'pro:short' }).string('API_KEYS')).toThrow('got "<hidden>"');
  });

  it('parses lists and keeps API_REPLICA_ID stable and explicit when given', () => {
    const c = loadConfig({ KAFKA_BROKERS: 'a:9092, b:9092', ROLE: 'api', API_REPLICA_ID: 'api-1' });
    expect([c.kafkaBrokers, c.replicaId]).toEqual([['a:9092', 'b:9092'], 'api-1']);
    expect(() => loadConfig({ API_REPLICA_ID: 'a b' })).toThrow('API_REPLICA_ID must be 1-64 letters');
  });
});
