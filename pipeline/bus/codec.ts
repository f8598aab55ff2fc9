import { AvroDeserializer, AvroSerializer, Compatibility, SerdeType } from '@confluentinc/schemaregistry';
import type { Client } from '@confluentinc/schemaregistry';
import avro from 'avsc';
import { AVRO_SCHEMAS, OPPORTUNITY_COMMON_FIELDS, OPPORTUNITY_KIND_FIELDS, TOPICS } from '../../schemas/index.js';
import type { TopicName } from '../../schemas/index.js';

/**
 * How record values cross the wire on Kafka. The in-process bus passes objects and needs none.
 * `prepare` runs before anything is produced: a codec that cannot accept the current schemas
 * (a breaking change) refuses there, so nothing is written in a shape readers cannot decode.
 */
export interface Codec {
  readonly name: string;
  prepare(): Promise<void>;
  encode(topic: TopicName, value: unknown): Promise<Buffer>;
  /** Throws on a payload it cannot read: the bus sends it to the dead-letter topic. */
  decode(topic: TopicName, payload: Buffer): Promise<unknown>;
}

export const jsonCodec: Codec = {
  name: 'json',
  prepare: async () => undefined,
  encode: async (_topic, value) => Buffer.from(JSON.stringify(value)),
  decode: async (_topic, payload) => JSON.parse(payload.toString('utf8')) as unknown,
};

export class SchemaCompatibilityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaCompatibilityError';
  }
}

function subjectOf(topic: string): string {
  return `${topic}-value`;
}

/**
 * BACKWARD: data written with `previous` must be readable with `next` (avsc's resolver says
 * whether it can). The registry checks this too on register; checking here first makes the
 * refusal the same, with a clear message, against any registry (the package's mock included).
 */
export function assertBackwardCompatible(subject: string, previous: string, next: string): void {
  try {
    avro.Type.forSchema(JSON.parse(next) as avro.Schema).createResolver(avro.Type.forSchema(JSON.parse(previous) as avro.Schema));
  } catch (e) {
    throw new SchemaCompatibilityError(`schema for ${subject} is not BACKWARD compatible with the registered one: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const KIND_FIELDS = new Map(Object.entries(OPPORTUNITY_KIND_FIELDS));
const ALL_KIND_FIELDS = new Set(Object.values(OPPORTUNITY_KIND_FIELDS).flat());

/** Opportunities are one Avro record whose kind-specific fields are nullable: fill and trim them. */
function toWire(topic: TopicName, value: unknown): unknown {
  if (topic !== TOPICS.opportunities) return value;
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = { ...o };
  for (const f of ALL_KIND_FIELDS) if (out[f] === undefined) out[f] = null;
  return out;
}

function fromWire(topic: TopicName, value: unknown): unknown {
  if (topic !== TOPICS.opportunities) return value;
  const o = value as Record<string, unknown>;
  const keep = new Set<string>([...OPPORTUNITY_COMMON_FIELDS, ...(KIND_FIELDS.get(String(o['kind'])) ?? [])]);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (keep.has(k)) out[k] = v;
  return out;
}

export interface AvroCodecOptions {
  /** A registry client: `SchemaRegistryClient.newClient({ baseURLs: [url] })`, or `mock://` in tests. */
  client: Client;
  /** The schemas to register (default: every topic's, from `schemas/avro.ts`). */
  schemas?: Partial<Record<TopicName, unknown>>;
}

/**
 * Avro values in the Confluent wire format (magic byte, schema id, Avro body) through
 * `@confluentinc/schemaregistry`. `prepare` sets each subject to BACKWARD, refuses a schema that
 * is not compatible with the latest registered one, and registers it.
 */
export class AvroCodec implements Codec {
  readonly name = 'avro';
  private readonly client: Client;
  private readonly schemas: Partial<Record<TopicName, unknown>>;
  private readonly serializer: AvroSerializer;
  private readonly deserializer: AvroDeserializer;

  constructor(options: AvroCodecOptions) {
    this.client = options.client;
    this.schemas = options.schemas ?? AVRO_SCHEMAS;
    this.serializer = new AvroSerializer(this.client, SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true });
    this.deserializer = new AvroDeserializer(this.client, SerdeType.VALUE, {});
  }

  async prepare(): Promise<void> {
    for (const [topic, schema] of Object.entries(this.schemas)) {
      const subject = subjectOf(topic);
      const text = JSON.stringify(schema);
      let latest: string | null = null;
      try {
        latest = (await this.client.getLatestSchemaMetadata(subject)).schema ?? null;
      } catch {
        latest = null; // a new subject
      }
      if (latest !== null) assertBackwardCompatible(subject, latest, text);
      try {
        await this.client.updateCompatibility(subject, Compatibility.BACKWARD);
      } catch {
        // Some registries refuse per-subject config to this user; the default level then applies.
      }
      await this.client.register(subject, { schemaType: 'AVRO', schema: text }, false);
    }
  }

  async encode(topic: TopicName, value: unknown): Promise<Buffer> {
    return this.serializer.serialize(topic, toWire(topic, value));
  }

  async decode(topic: TopicName, payload: Buffer): Promise<unknown> {
    return fromWire(topic, await this.deserializer.deserialize(topic, payload));
  }
}
