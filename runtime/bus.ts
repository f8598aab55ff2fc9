import { AvroCodec, KafkaBus } from '../pipeline/bus/index.js';
import { openMemoryBus } from './saved-bus-log.js';
import type { Bus } from '../pipeline/bus/index.js';
import type { Logger } from 'pino';
import type { Clock } from '../pipeline/clock.js';
import type { Config } from './config.js';
import type { RuntimeHealth } from './health.js';
import { StartupError, firstLine } from './startup-error.js';

/**
 * Kafka when `KAFKA_BROKERS` is set (Avro through `SCHEMA_REGISTRY_URL` when that is set too),
 * else the in-process bus, stamped with the system's clock (continuing the log the last run saved in `DATA_DIR`). On Kafka the schemas are registered
 * here, before anything is produced: a breaking change or an unreachable registry stops the start.
 * So do topics that are missing and cannot be created (a cluster that refuses CreateTopics is
 * accepted when its brokers auto-create topics: logged as a warning with what they created).
 * Changelogs that would not give a restore every key (not compacted alone, or their head already
 * deleted) degrade `health`: the process still starts, because what it restored is all the log holds.
 */
export async function makeBus(config: Config, clock: Clock, logger: Logger, health: RuntimeHealth): Promise<Bus> {
  if (config.kafkaBrokers === null) return openMemoryBus(config.dataDir, config.busLogRetentionMinutes, () => clock.now(), logger);
  // Loaded here only: the registry client pulls in cloud KMS packages that an embedded start never uses.
  const codec =
    config.schemaRegistryUrl === null
      ? undefined
      : new AvroCodec({
          client: (await import('@confluentinc/schemaregistry')).SchemaRegistryClient.newClient({
            baseURLs: [config.schemaRegistryUrl],
            maxRetries: 2,
          }),
        });
  const bus = new KafkaBus({
    brokers: config.kafkaBrokers,
    clientId: `odds-${config.role}`,
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    onRejoin: (rejoin) => logger.warn(rejoin, 'Kafka consumer refused by its group: rejoining'),
    ...(codec ? { codec } : {}),
  });
  try {
    await bus.prepareCodec();
  } catch (e) {
    throw new StartupError(`SCHEMA_REGISTRY_URL ${config.schemaRegistryUrl ?? ''}: ${firstLine(e).slice(0, 300)}`);
  }
  try {
    const report = await bus.ensureTopics();
    if (report.created.length > 0) logger.info({ topics: report.created }, 'Kafka topics created');
    if (report.autoCreated.length > 0) {
      logger.warn(
        { topics: report.autoCreated, refused: report.createError },
        'Kafka refused to create topics; the brokers auto-created them at their default partition count and cleanup policy (compacted topics should be compacted: create them yourself)',
      );
    }
    for (const w of report.wider) logger.warn(w, 'Kafka topic has more partitions than configured: producers use only the configured ones');
    if (report.policiesUnknown !== null) {
      logger.warn(
        { refused: report.policiesUnknown },
        "Kafka did not describe the changelog topics' cleanup policies; they were not checked",
      );
    }
    if (report.notCompacted.length > 0) {
      const named = report.notCompacted.map((t) => `${t.topic} (${t.policy})`).join(', ');
      logger.warn(
        { topics: report.notCompacted },
        'Kafka changelog topics are not compacted alone: a restore misses keys once records age out',
      );
      health.degrade(`changelog topics not compacted alone, so restores will miss keys once records age out: ${named}`);
    }
    if (report.headDeleted.length > 0) {
      const named = report.headDeleted.map((p) => `${p.topic}[${p.partition}] from ${p.logStart}`).join(', ');
      logger.warn({ partitions: report.headDeleted }, 'Kafka changelog partitions no longer start at offset 0: this restore may miss keys');
      health.degrade(`changelog partitions no longer start at offset 0, so this restore may have missed keys: ${named}`);
    }
  } catch (e) {
    await bus.close().catch(() => undefined);
    throw new StartupError(`KAFKA_BROKERS ${config.kafkaBrokers.join(',')}: ${firstLine(e).slice(0, 400)}`);
  }
  return bus;
}
