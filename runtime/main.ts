import { loadConfig } from './config.js';
import type { Config } from './config.js';
import { checkDemoKeysFile, lockDataDir, prepareDataDir } from './data-dir.js';
import type { DataDirLock } from './data-dir.js';
import { logFormatFor, makeLogger } from './logger.js';
import { ConfigError } from './settings.js';
import { shutDown } from './shutdown.js';
import { StartupError, firstLine } from './startup-error.js';

/**
 * The one entry of every role (`ROLE=all|pipeline|api`). A start that fails prints one line
 * naming the setting or file and exits non-zero before any port opens; a stage that fails later
 * turns /health to 503, then exits non-zero after FAILURE_EXIT_DELAY_MS for the supervisor to
 * restart the process from its last committed offsets.
 */
async function main(): Promise<void> {
  const config: Config = loadConfig();
  const logger = makeLogger(config.logLevel, logFormatFor(config.logFormat, process.stdout.isTTY === true));
  prepareDataDir(config.dataDir);
  const lock: DataDirLock = lockDataDir(config.dataDir);
  process.on('exit', () => lock.release());
  if (config.role !== 'pipeline') checkDemoKeysFile(config.dataDir);

  const onFatal = (): void => {
    setTimeout(() => process.exit(1), config.failureExitDelayMs).unref();
  };
  let stop: () => Promise<void>;
  if (config.role === 'pipeline') {
    // Loaded only in this role: the pipeline process never imports api/.
    const { startPipelineRole } = await import('./pipeline-role.js');
    const running = await startPipelineRole(config, logger, onFatal);
    stop = running.stop;
    process.stdout.write(
      `Odds platform pipeline: ${running.url}/health   (feed: ${config.feed}, store: ${config.clickhouse ? 'clickhouse' : 'chdb'}, kafka: ${config.kafkaBrokers?.join(',') ?? 'none'})\n`,
    );
    if (running.metricsUrl) process.stdout.write(`Metrics: ${running.metricsUrl}/metrics and /stats   (operator port: keep it private)\n`);
  } else {
    const { startSystem } = await import('./system.js');
    const { printBanner } = await import('./banner.js');
    const system = await startSystem(config, logger, { onFatal });
    stop = system.stop;
    printBanner(config, system);
  }

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    void shutDown(signal, stop, logger).then((status) => process.exit(status));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  const known = e instanceof ConfigError || e instanceof StartupError;
  process.stderr.write(`${known ? 'cannot start' : 'failed to start'}: ${firstLine(e)}\n`);
  process.exit(known ? 2 : 1);
});
