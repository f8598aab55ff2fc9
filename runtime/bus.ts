import { SchemaRegistryClient } from '@confluentinc/schemaregistry';
import { AvroCodec, KafkaBus, MemoryBus } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import type { Clock } from '../pipeline/clock.js';
import type { Config } from './config.js';
import { StartupError, firstLine } from './startup-error.js';

/**
 * Kafka when `KAFKA_BROKERS` is set (Avro through `SCHEMA_REGISTRY_URL` when that is set too),
 * else the in-process bus, stamped with the system's clock. On Kafka the schemas are registered
 * here, before anything is produced: a breaking change or an unreachable registry stops the start.
 */
export async function makeBus(config: Config, clock: Clock): Promise<Bus> {
  if (config.kafkaBrokers === null) return new MemoryBus({ now: () => clock.now() });
  const codec = config.schemaRegistryUrl === null ? undefined : new AvroCodec({ client: SchemaRegistryClient.newClient({ baseURLs: [config.schemaRegistryUrl], maxRetries: 2 }) });
  const bus = new KafkaBus({ brokers: config.kafkaBrokers, clientId: `odds-${config.role}`, sessionTimeoutMs: config.kafkaSessionTimeoutMs, ...(codec ? { codec } : {}) });
  try {
    await bus.prepareCodec();
  } catch (e) {
    throw new StartupError(`SCHEMA_REGISTRY_URL ${config.schemaRegistryUrl ?? ''}: ${firstLine(e).slice(0, 300)}`);
  }
  return bus;
}
