import { describe, expect, it } from 'vitest';
import { outageVerdict, storeOutagePlan } from './chaos-store-outage.js';

describe('the store outage window', () => {
  it('runs only against a ClickHouse server with both commands given, and says why not otherwise', () => {
    expect(storeOutagePlan({})).toEqual({
      run: false,
      why: 'not run: the store is chDB inside each pipeline process (CHAOS_STORE=server, or CLICKHOUSE_URL and the stop/start commands, for server mode)',
    });
    expect(storeOutagePlan({ CLICKHOUSE_URL: 'http://127.0.0.1:8123', CHAOS_STORE_STOP_CMD: 'docker compose stop clickhouse' })).toEqual({
      run: false,
      why: 'not run: CLICKHOUSE_URL is set but CHAOS_STORE_STOP_CMD or CHAOS_STORE_START_CMD is not',
    });
    expect(
      storeOutagePlan({
        CLICKHOUSE_URL: 'http://127.0.0.1:8123',
        CHAOS_STORE_STOP_CMD: 'docker compose stop clickhouse',
        CHAOS_STORE_START_CMD: 'docker compose start clickhouse',
      }),
    ).toEqual({ run: true, by: 'commands', stop: 'docker compose stop clickhouse', start: 'docker compose start clickhouse', seconds: 20 });
  });

  it('runs by stopping and starting the development store server with CHAOS_STORE=server, no commands needed', () => {
    expect(storeOutagePlan({ CHAOS_STORE: 'server', CHAOS_STORE_OUTAGE_SECONDS: '15' })).toEqual({
      run: true,
      by: 'store-server',
      seconds: 15,
    });
    expect(storeOutagePlan({ CHAOS_STORE: 'server', CHAOS_STORE_OUTAGE_SECONDS: '0' })).toEqual({
      run: false,
      why: 'not run: CHAOS_STORE_OUTAGE_SECONDS must be a positive number',
    });
  });

  it('holds when /health stopped saying ok and ticks waited in Kafka', () => {
    const verdict = outageVerdict(20, [
      { health: ['ok', 'ok'], pipelineHealth: ['ok', 'ok'], lags: [0, 0] },
      { health: ['down', 'degraded'], pipelineHealth: ['degraded', null], lags: [120, 80] },
    ]);
    expect(verdict).toEqual({
      line: 'ran 20 s: API /health said degraded, down, ok; pipeline /health said degraded, ok, unreachable; pipeline lag peaked at 120',
      failure: null,
    });
  });

  it('fails when a replica said ok throughout or nothing waited', () => {
    expect(outageVerdict(20, [{ health: ['ok', 'down'], pipelineHealth: ['degraded', 'degraded'], lags: [0, null] }]).failure).toBe(
      'store outage: an API /health said ok throughout; the pipelines never had ticks waiting',
    );
  });

  it("fails when a pipeline's /health said ok throughout, as one did before it read the store", () => {
    expect(
      outageVerdict(20, [
        { health: ['degraded', 'degraded'], pipelineHealth: ['ok', 'degraded'], lags: [300, 0] },
        { health: ['degraded', 'degraded'], pipelineHealth: ['degraded', 'ok'], lags: [600, 0] },
      ]).failure,
    ).toBe('store outage: a pipeline /health said ok throughout');
  });
});
