import { pino } from 'pino';
import { TIER_NAMES } from '../schemas/index.js';
import { ConfigError, loadConfig } from './config.js';
import { startSystem } from './system.js';

/** `make run`: the whole platform in one process on embedded defaults. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = pino({ level: config.logLevel });
  const system = await startSystem(config, logger);

  const lines = [
    '',
    `Odds platform API: ${system.url}/api/v1   (feed: ${config.feed}, store: ${system.store.kind}, data: ${config.dataDir})`,
    `OpenAPI document:  ${system.url}/api/v1/openapi.json`,
    'Demo API keys (send as X-API-Key, Authorization: Bearer, or ?api_key=):',
    ...TIER_NAMES.map((tier) => `  ${tier.padEnd(10)} ${system.demoKeys[tier]}${system.keys.lookup(system.demoKeys[tier]) ? '' : '   (revoked or expired)'}`),
    `Try: curl -H "X-API-Key: ${system.demoKeys.pro}" ${system.url}/api/v1/sports`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    system.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        logger.error({ err: e }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
