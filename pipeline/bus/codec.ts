// Types only: the registry package loads cloud KMS clients (about 2 s of a start) that the
// in-process bus never needs, so only `runtime/bus.ts` loads it, and only for Kafka with a registry.
import type { Client, Compatibility } from '@confluentinc/schemaregistry';
import avro from 'avsc';
import {
  AVRO_SCHEMAS,
  OPPORTUNITY_COMMON_FIELDS,
  OPPORTUNITY_KIND_FIELDS,
  TOPICS,
  isRawFutures,
  isRawSplits,
} from '../../schemas/index.js';
import type { AccountChange, FeedRecord, TopicName } from '../../schemas/index.js';

/**
 * How record values cross the wire on Kafka. The in-process bus passes objects and needs none.
 * `prepare` runs before anything is produced: a codec that cannot accept the current schemas
 * (a breaking change) refuses there, so nothing is written in a shape readers cannot decode.
 */
export interface Codec {
  readonly name: string;
  prepare(): Promise<void>;
  /**
   * Synchronous whenever it can be (the bus then spends no promise per record, which showed in
   * the Kafka bench's profile); a promise when it must ask a registry first.
   */
  encode(topic: TopicName, value: unknown): Buffer | Promise<Buffer>;
  /** Throws (or rejects) on a payload it cannot read: the bus sends it to the dead-letter topic. */
  decode(topic: TopicName, payload: Buffer): unknown;
}

export const jsonCodec: Codec = {
  name: 'json',
  prepare: async () => undefined,
  encode: (_topic, value) => Buffer.from(JSON.stringify(value)),
  decode: (_topic, payload) => JSON.parse(payload.toString('utf8')) as unknown,
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
    throw new SchemaCompatibilityError(
      `schema for ${subject} is not BACKWARD compatible with the registered one: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

const KIND_FIELDS = new Map(Object.entries(OPPORTUNITY_KIND_FIELDS));
const ALL_KIND_FIELDS = new Set<string>(Object.values(OPPORTUNITY_KIND_FIELDS).flat());
/** Optional fields of an opportunity (not nullable ones): the wire's null reads back as the field left out. */
const ABSENT_WHEN_NULL = new Set(['maxStake', 'foundAtCommission']);

/**
 * Where the TypeScript value and the Avro record differ in shape: opportunities are one record
 * whose kind-specific fields are nullable (filled and trimmed); the feed's records are wrapped
 * (`tick` or `splits`); an account change sets one of `account`, `key` and `rule`; game-state extras are
 * JSON text.
 */
function toWire(topic: TopicName, value: unknown, fields: readonly string[]): unknown {
  switch (topic) {
    case TOPICS.opportunities: {
      // Built field by field in the schema's order, so every record shares one object shape. A
      // spread copy of an opportunity given fields of its own afterwards got a shape of its own
      // each time, the slow path docs/performance-pipeline.md describes for the engines.
      const v = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        const field = v[f];
        out[f] = field === undefined && ALL_KIND_FIELDS.has(f) ? null : field;
      }
      return out;
    }
    case TOPICS.rawTicks: {
      const v = value as FeedRecord;
      if (isRawFutures(v)) return { tick: null, splits: null, futures: v };
      return isRawSplits(v) ? { tick: null, splits: v, futures: null } : { tick: v, splits: null, futures: null };
    }
    case TOPICS.accounts: {
      const v = value as AccountChange;
      return {
        kind: v.kind,
        account: v.kind === 'account' ? v.account : null,
        key: v.kind === 'key' ? v.key : null,
        rule: v.kind === 'alert_rule' ? v.rule : null,
      };
    }
    case TOPICS.rawGameState:
    case TOPICS.gameState: {
      const v = value as { extras: unknown };
      return { ...v, extras: JSON.stringify(v.extras) };
    }
    default:
      return value;
  }
}

/**
 * The Avro body after the 5-byte frame, read in place (`fromBuffer` would need a view of it,
 * one more object per record); a record with bytes left over is refused, as `fromBuffer` does.
 */
function readBody(type: avro.Type, payload: Buffer): unknown {
  const { value, offset } = type.decode(payload, 5);
  if (offset !== payload.length) throw new Error(offset < 0 ? 'truncated buffer' : 'trailing data');
  return value as unknown;
}

/** A sportsbook's price has no exchange quote: the wire's null reads back as the field left out. */
function withoutNullExchange(o: Record<string, unknown>): Record<string, unknown> {
  if (o['exchange'] !== null) return o;
  const { exchange: _none, ...rest } = o;
  return rest;
}

/** Leg fields set only on some legs (a lay's side and price, an exchange leg's rate and sizes). */
const OPTIONAL_LEG_FIELDS = new Set(['side', 'layPrice', 'commission', 'backPrice', 'maxLegStake']);

/** The wire's nulls of a leg's optional fields read back as the fields left out. */
function legFromWire(leg: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(leg)) if (v !== null || !OPTIONAL_LEG_FIELDS.has(k)) out[k] = v;
  return out;
}

function fromWire(topic: TopicName, value: unknown): unknown {
  const o = value as Record<string, unknown>;
  switch (topic) {
    case TOPICS.opportunities: {
      const keep = new Set<string>([...OPPORTUNITY_COMMON_FIELDS, ...(KIND_FIELDS.get(String(o['kind'])) ?? [])]);
      const out: Record<string, unknown> = {};
      // A combination without an exchange leg has no capacity, and one found at the board's rates no
      // search rate: the wire's null is the field left out.
      for (const [k, v] of Object.entries(o)) if (keep.has(k) && !(v === null && ABSENT_WHEN_NULL.has(k))) out[k] = v;
      if (Array.isArray(out['legs'])) out['legs'] = (out['legs'] as Record<string, unknown>[]).map(legFromWire);
      return out;
    }
    case TOPICS.rawTicks:
      return o['tick'] != null ? withoutNullExchange(o['tick'] as Record<string, unknown>) : (o['splits'] ?? o['futures']);
    case TOPICS.ticks:
      return withoutNullExchange(o);
    case TOPICS.snapshot:
      return o['row'] != null ? { ...o, row: withoutNullExchange(o['row'] as Record<string, unknown>) } : value;
    case TOPICS.accounts:
      if (o['kind'] === 'alert_rule') return { kind: 'alert_rule', rule: o['rule'] };
      return o['kind'] === 'account' ? { kind: 'account', account: o['account'] } : { kind: 'key', key: o['key'] };
    case TOPICS.rawGameState:
    case TOPICS.gameState:
      return { ...o, extras: JSON.parse(String(o['extras'])) as unknown };
    default:
      return value;
  }
}

export interface AvroCodecOptions {
  /** A registry client: `SchemaRegistryClient.newClient({ baseURLs: [url] })`, or `mock://` in tests. */
  client: Client;
  /** The schemas to register (default: every topic's, from `schemas/avro.ts`). */
  schemas?: Partial<Record<TopicName, unknown>>;
}

/**
 * Avro values in the Confluent wire format (magic byte 0, the schema id as a big-endian int32,
 * the Avro body), schemas registered through `@confluentinc/schemaregistry`. `prepare` sets each
 * subject to BACKWARD, refuses a schema that is not compatible with the latest registered one,
 * and registers it. Encoding and decoding use avsc directly with the types cached per schema id
 * (the package's per-record serializer measured about 4x slower on the pipeline); a record
 * written with another registered version is read through avsc's schema resolution.
 */
export class AvroCodec implements Codec {
  readonly name = 'avro';
  private readonly client: Client;
  private readonly schemas: Partial<Record<TopicName, unknown>>;
  /** What this process writes: per topic, the registered id, the type and its record's fields in order. */
  private readonly writers = new Map<string, { id: number; type: avro.Type; fields: readonly string[] }>();
  /** How to read a record by writer schema id, per topic (resolved to this process's schema). */
  private readonly readers = new Map<string, Promise<avro.Type | avro.Resolver>>();

  constructor(options: AvroCodecOptions) {
    this.client = options.client;
    this.schemas = options.schemas ?? AVRO_SCHEMAS;
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
        await this.client.updateCompatibility(subject, 'BACKWARD' as Compatibility.BACKWARD);
      } catch {
        // Some registries refuse per-subject config to this user; the default level then applies.
      }
      const id = await this.client.register(subject, { schemaType: 'AVRO', schema: text }, false);
      const type = avro.Type.forSchema(schema as avro.Schema);
      const fields = type instanceof avro.types.RecordType ? type.fields.map((f) => f.name) : [];
      this.writers.set(topic, { id, type, fields });
    }
  }

  /**
   * Where records are framed and encoded before their one copy out: avsc's `toBuffer` encodes
   * into a shared buffer too, then copies into a zero-filled buffer of its own, which the frame
   * then copied again (two allocations outside the pool and two copies per record).
   */
  private scratch = Buffer.allocUnsafeSlow(64 * 1024);

  encode(topic: TopicName, value: unknown): Buffer {
    const writer = this.writers.get(topic);
    if (!writer) throw new Error(`no Avro schema registered for ${topic}: call prepare() first`);
    const wire = toWire(topic, value, writer.fields);
    let end = writer.type.encode(wire, this.scratch, 5);
    if (end < 0) {
      // A negative end is how many bytes were missing: grow once and write again.
      this.scratch = Buffer.allocUnsafeSlow(Math.max(2 * this.scratch.length, this.scratch.length - end));
      end = writer.type.encode(wire, this.scratch, 5);
    }
    this.scratch[0] = 0;
    this.scratch.writeInt32BE(writer.id, 1);
    // From Node's shared pool: a small record costs no allocation of its own.
    const out = Buffer.allocUnsafe(end);
    this.scratch.copy(out, 0, 0, end);
    return out;
  }

  /** Synchronous for records written with this process's own schema; otherwise the writer's schema is fetched first. */
  decode(topic: TopicName, payload: Buffer): unknown {
    if (payload.length < 5 || payload[0] !== 0)
      throw new Error(`Unknown magic byte: not a Confluent-framed Avro record (${payload.length} bytes)`);
    const id = payload.readInt32BE(1);
    const own = this.writers.get(topic);
    if (own !== undefined && own.id === id) return fromWire(topic, readBody(own.type, payload));
    return this.reader(topic, id).then((reader) => {
      const body = payload.subarray(5);
      const value =
        reader instanceof avro.Type ? reader.fromBuffer(body) : (own?.type ?? avro.Type.forSchema('null')).fromBuffer(body, reader);
      return fromWire(topic, value);
    });
  }

  private reader(topic: TopicName, id: number): Promise<avro.Type | avro.Resolver> {
    const key = `${topic}:${id}`;
    let found = this.readers.get(key);
    if (!found) {
      found = (async () => {
        const own = this.writers.get(topic);
        if (!own) throw new Error(`no Avro schema registered for ${topic}`);
        if (own.id === id) return own.type;
        const info = await this.client.getBySubjectAndId(subjectOf(topic), id);
        return own.type.createResolver(avro.Type.forSchema(JSON.parse(info.schema) as avro.Schema));
      })();
      found.catch(() => this.readers.delete(key));
      this.readers.set(key, found);
    }
    return found;
  }
}
