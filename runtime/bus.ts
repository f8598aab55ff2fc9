import { KafkaBus, MemoryBus } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import type { Clock } from '../pipeline/clock.js';
import type { Config } from './config.js';

/** Kafka when `KAFKA_BROKERS` is set, else the in-process bus (stamped with the system's clock). */
export function makeBus(config: Config, clock: Clock): Bus {
  return config.kafkaBrokers === null ? new MemoryBus({ now: () => clock.now() }) : new KafkaBus({ brokers: config.kafkaBrokers, clientId: `odds-${config.role}`, sessionTimeoutMs: config.kafkaSessionTimeoutMs });
}
