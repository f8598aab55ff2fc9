import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { registerPipelineMetrics } from '../pipeline/metrics.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Config } from './config.js';
import { drain } from './drain.js';
import type { RuntimeHealth } from './health.js';
import { pipelineHealthCheck } from './pipeline-health.js';
import { operatorNotFound, serveOperator, startOperatorEndpoint } from './operator-endpoint.js';
import type { OperatorRoutes } from './operator-endpoint.js';
import { openProcessParts, startConfiguredPipeline, startInput } from './process-parts.js';
import { StartupError } from './startup-error.js';

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
 * when a stage failed; degraded while the store does not answer: pipeline-health.ts) on PORT for
 * the supervisor. The counters (`/stats` in JSON, `/metrics` in Prometheus text) are operator
 * data: on METRICS_PORT, and on PORT only with METRICS_TOKEN. Imports nothing from `api/`.
 */
export async function startPipelineRole(config: Config, logger: Logger, onFatal: (reason: string) => void): Promise<RunningPipeline> {
  const parts = await openProcessParts(config, logger, { runsFeed: true });
  const { clock, health, opened, feed, bus } = parts;
  const pipeline = startConfiguredPipeline(config, parts, logger, { onFatal });
  const healthReport = pipelineHealthCheck(health, opened.store, () => pipeline.lag(), clock);

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerPipelineMetrics(registry, () => pipeline.stats());
  const operatorRoutes: OperatorRoutes = new Map([
    ['/metrics', async () => ({ contentType: registry.contentType, body: await registry.metrics() })],
    ['/stats', async () => ({ contentType: 'application/json', body: JSON.stringify(pipeline.stats()) })],
  ]);
  const { token } = config.metrics;
  const answerHealth = async (res: ServerResponse): Promise<void> => {
    const report = await healthReport();
    res.writeHead(report.status === 'down' ? 503 : 200, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
    res.end(JSON.stringify(report));
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health' || path === '/api/v1/health') {
      answerHealth(res).catch((e: unknown) => {
        logger.error({ err: e }, 'pipeline /health failed');
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    } else if (token === null || !serveOperator(req, res, operatorRoutes, token)) {
      operatorNotFound(
        res,
        'the pipeline process serves /health on this port; /stats and /metrics are on METRICS_PORT, or here with METRICS_TOKEN',
      );
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new StartupError(`PORT ${config.port} on HOST ${config.host} cannot be opened (${e.code ?? e.message})`)),
    );
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.address}:${address.port}`;
  const operator =
    config.metrics.port === null
      ? null
      : await startOperatorEndpoint({ host: config.host, port: config.metrics.port, token, routes: operatorRoutes });
  await startInput(parts, pipeline);

  let stopped: Promise<void> | null = null;
  return {
    url,
    metricsUrl: operator?.url ?? null,
    pipeline,
    health,
    stop: () => {
      stopped ??= (async () => {
        await feed?.stop();
        await drain(
          () => pipeline.lag(),
          15_000,
          () => health.failed,
        );
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
