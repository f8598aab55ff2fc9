import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { LEAGUES, TEAMS, tierBookScopes } from '../schemas/index.js';
import { startPipeline } from '../pipeline/pipeline.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { makeBus } from './bus.js';
import type { Config } from './config.js';
import { clockFor, makeFeed, startFeed } from './feed.js';
import { RuntimeHealth } from './health.js';
import { registerPipelineMetrics } from '../pipeline/metrics.js';
import { operatorNotFound, serveOperator, startOperatorEndpoint } from './operator-endpoint.js';
import type { OperatorRoutes } from './operator-endpoint.js';
import { StartupError } from './startup-error.js';
import { openStore } from './store.js';

export interface RunningPipeline {
  url: string;
  /** The operator listener (METRICS_PORT) serving /metrics and /stats, or null. */
  metricsUrl: string | null;
  pipeline: Pipeline;
  health: RuntimeHealth;
  stop(): Promise<void>;
}

/**
 * ROLE=pipeline: the feed, the processors and the sinks, on Kafka, with `/health` (JSON, 503
 * when a stage failed) on PORT for the supervisor. The counters (`/stats` in JSON, `/metrics` in
 * Prometheus text) are operator data: on METRICS_PORT, and on PORT only with METRICS_TOKEN.
 * Imports nothing from `api/`.
 */
export async function startPipelineRole(config: Config, logger: Logger, onFatal: (reason: string) => void): Promise<RunningPipeline> {
  const clock = clockFor(config);
  const health = new RuntimeHealth();
  const opened = await openStore(config, logger, health);
  const feed = await makeFeed(config, clock, logger);
  const bus = await makeBus(config, clock, logger);
  const pipeline = startPipeline({
    bus, store: opened.store, clock, logger, catalog: { teams: TEAMS, leagues: LEAGUES },
    sinkBatchRows: config.sink.batchRows, sinkMaxWaitMs: config.sink.maxWaitMs, sinkRetries: config.sink.retries,
    opportunities: { bookScopes: tierBookScopes() },
    onFailure: (e) => {
      if (health.failed) return;
      const reason = `stage failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
      health.fail(reason);
      logger.fatal({ reason }, 'pipeline stage failed: the process stops');
      onFatal(reason);
    },
  });

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerPipelineMetrics(registry, () => pipeline.stats());
  const operatorRoutes: OperatorRoutes = new Map([
    ['/metrics', async () => ({ contentType: registry.contentType, body: await registry.metrics() })],
    ['/stats', async () => ({ contentType: 'application/json', body: JSON.stringify(pipeline.stats()) })],
  ]);
  const { token } = config.metrics;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health' || path === '/api/v1/health') {
      const check = health.check();
      res.writeHead(check.status === 'down' ? 503 : 200, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
      res.end(JSON.stringify({ status: check.status, role: 'pipeline', checks: { runtime: check }, lag: pipeline.lag(), timestamp: new Date(clock.now()).toISOString() }));
    } else if (token === null || !serveOperator(req, res, operatorRoutes, token)) {
      operatorNotFound(res, 'the pipeline process serves /health on this port; /stats and /metrics are on METRICS_PORT, or here with METRICS_TOKEN');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new StartupError(`PORT ${config.port} on HOST ${config.host} cannot be opened (${e.code ?? e.message})`)));
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.address}:${address.port}`;
  const operator = config.metrics.port === null ? null : await startOperatorEndpoint({ host: config.host, port: config.metrics.port, token, routes: operatorRoutes });
  await pipeline.ready;
  if (feed) await startFeed(feed, bus);

  let stopped: Promise<void> | null = null;
  return {
    url,
    metricsUrl: operator?.url ?? null,
    pipeline,
    health,
    stop: () => {
      stopped ??= (async () => {
        await feed?.stop();
        const end = Date.now() + 15_000;
        while (!health.failed && pipeline.lag() > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
        await pipeline.stop();
        await bus.close();
        await opened.closeCleanly();
        await operator?.close();
        await new Promise<void>((r) => server.close(() => r()));
      })();
      return stopped;
    },
  };
}
