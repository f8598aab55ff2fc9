import { readFileSync } from 'node:fs';
import avro from 'avsc';
import { AvroDeserializer, AvroSerializer, SchemaRegistryClient, SerdeType } from '@confluentinc/schemaregistry';
import { describe, expect, it } from 'vitest';
import { AVRO_SCHEMAS, LEAGUES, TEAMS, TOPICS, isRawFutures, isRawSplits } from '../../schemas/index.js';
import type { AccountChange, BetRecord, CanonicalEvent, OddsTick, TopicName, TopicValues } from '../../schemas/index.js';
import { ManualClock } from '../clock.js';
import { MarketSimulator } from '../feeds/simulator/index.js';
import { FuturesNormalizer, FuturesProcessor } from '../futures/index.js';
import { Normalizer } from '../normalize/index.js';
import { OpportunityProcessor, defaultReferenceBooks } from '../opportunities/index.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { SplitsProcessor } from '../splits/index.js';
import { AvroCodec, SchemaCompatibilityError } from './codec.js';

const mockRegistry = () => SchemaRegistryClient.newClient({ baseURLs: ['mock://'] });

/** Real values of every topic: a simulated market through the real processors. */
function sampleValues(): { [T in TopicName]: TopicValues[T][] } {
  const T0 = Date.UTC(2026, 10, 22, 12);
  const clock = new ManualClock(T0);
  const sim = new MarketSimulator({ seed: 3, clock, eventsPerLeague: 1 });
  const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
  const snapshot = new SnapshotProcessor();
  const opportunities = new OpportunityProcessor();
  const splits = new SplitsProcessor();
  const out: { [T in TopicName]: TopicValues[T][] } = {
    'odds.ticks.raw': [],
    'odds.ticks': [],
    events: [],
    'odds.snapshot': [],
    opportunities: [],
    'dead-letter': [],
    accounts: [],
    splits: [],
    'gamestate.raw': [],
    gamestate: [],
    futures: [],
    'futures.markets': [],
    bets: [],
  };
  const raw = sim.snapshot();
  for (let i = 1; i <= 4; i++) raw.push(...sim.step(T0 + i * 5000, 300));
  // Splits and game states from the same market, through the normalizer and the splits processor.
  const rawSplits = sim.splits(T0 + 30_000);
  // Game states come from games in play: a market of live games, a few minutes of play.
  const liveClock = new ManualClock(T0);
  const live = new MarketSimulator({ seed: 5, clock: liveClock, eventsPerLeague: 1, liveShare: 1 });
  const liveNormalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
  for (const r of live.snapshot()) liveNormalizer.handle(r, T0);
  const rawStates = live.takeGameStates();
  for (let i = 1; i <= 3; i++) {
    for (const r of live.step(T0 + i * 60_000, 300)) liveNormalizer.handle(r, T0);
    rawStates.push(...live.takeGameStates());
  }
  for (const r of raw) {
    out['odds.ticks.raw'].push(r);
    const n = normalizer.handle(r, T0);
    out.events.push(...n.events);
    for (const event of n.events) out.opportunities.push(...opportunities.handle({ type: 'event', event }, T0).map((c) => c.opportunity));
    if (!n.tick) continue;
    out['odds.ticks'].push(n.tick);
    const change = snapshot.handle(n.tick, T0);
    if (!change) continue;
    out['odds.snapshot'].push(change);
    out.opportunities.push(...opportunities.handle({ type: 'odds', change }, T0).map((c) => c.opportunity));
  }
  for (const r of rawSplits) {
    out['odds.ticks.raw'].push(r);
    const n = normalizer.handleSplits(r, T0 + 30_000);
    if (n.splits && n.event) out.splits.push(splits.handle(n.splits, n.event, T0 + 30_000));
  }
  for (const r of rawStates) {
    out['gamestate.raw'].push(r);
    const n = liveNormalizer.handleGameState(r, T0 + 30_000);
    if (n.state) out.gamestate.push(n.state);
  }
  // Futures boards, normalized, and the markets the futures processor derives from them.
  const futuresNormalizer = new FuturesNormalizer({ teams: TEAMS, leagues: LEAGUES });
  const futures = new FuturesProcessor({ referenceBooks: defaultReferenceBooks(), fallbackReferenceBooks: ['betonlineag'] });
  const rawFutures = sim.futures(T0 + 60_000).filter((_, i) => i % 40 === 0);
  out['odds.ticks.raw'].push(...rawFutures);
  out.futures.push(...rawFutures.flatMap((r) => futuresNormalizer.handle(r).quote ?? []));
  out['futures.markets'].push(...futures.handle(out.futures, T0 + 60_000).markets);
  const accounts: AccountChange[] = [
    { kind: 'account', account: { id: 'acct_1', name: 'Acme', createdAt: T0, version: 1, exchangeCommission: 2.5 } },
    {
      kind: 'key',
      key: {
        id: 'key_1',
        accountId: 'acct_1',
        hash: 'ab'.repeat(32),
        preview: 'sk_live_…9f3a',
        tier: 'pro',
        name: null,
        createdAt: T0,
        updatedAt: T0,
        active: true,
        expiresAt: null,
        revokedAt: null,
        requestsPerMinute: null,
        replacedBy: null,
        version: 2,
      },
    },
    {
      kind: 'key',
      key: {
        id: 'key_2',
        accountId: 'acct_1',
        hash: 'cd'.repeat(32),
        preview: 'sk_live_…11b0',
        tier: 'enterprise',
        name: 'backup',
        createdAt: T0,
        updatedAt: T0 + 1,
        active: false,
        expiresAt: T0 + 60_000,
        revokedAt: T0 + 1,
        requestsPerMinute: 20_000,
        replacedBy: 'key_1',
        version: 3,
      },
    },
    {
      kind: 'alert_rule',
      rule: {
        id: 'alert_1',
        accountId: 'acct_1',
        keyId: 'key_1',
        tier: 'pro',
        name: 'nba +EV',
        kind: 'ev',
        filtersJson: '{"sport":"basketball","min_ev":1}',
        webhookUrl: 'https://hooks.example.com/odds',
        secret: 'whsec_test',
        createdAt: T0,
        updatedAt: T0 + 1,
        active: false,
        deletedAt: T0 + 1,
        version: 4,
      },
    },
  ];
  out.accounts.push(...accounts);
  const bet: BetRecord = {
    id: 'bet_1',
    accountId: 'acct_1',
    eventId: 'ev_1',
    sport: 'football',
    league: 'nfl',
    eventStartTime: T0 + 3_600_000,
    market: 'point_spread',
    participant: null,
    statCategory: null,
    selection: 'home',
    line: -3.5,
    book: 'draftkings',
    priceAmerican: -110,
    priceDecimal: 1.9091,
    stake: 25.5,
    placedAt: T0,
    sourceId: null,
    devigMethod: 'power',
    sharpBook: 'pinnacle',
    createdAt: T0,
    deletedAt: null,
    version: 1,
  };
  out.bets.push(bet, {
    ...bet,
    id: 'bet_2',
    market: 'moneyline',
    line: null,
    sharpBook: null,
    sourceId: 'opp_1',
    deletedAt: T0 + 5,
    version: 2,
  });
  // Every opportunity kind, middles included: the processors' recorded sequence.
  const fixture = readFileSync(new URL('../opportunities/fixtures/replay-sequence.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const replaySnapshot = new SnapshotProcessor();
  const replayProcessor = new OpportunityProcessor();
  for (const line of fixture) {
    const l = JSON.parse(line) as { at: number; event?: CanonicalEvent; tick?: OddsTick };
    if (l.event) out.opportunities.push(...replayProcessor.handle({ type: 'event', event: l.event }, l.at).map((c) => c.opportunity));
    const change = l.tick ? replaySnapshot.handle(l.tick, l.at) : null;
    if (change) out.opportunities.push(...replayProcessor.handle({ type: 'odds', change }, l.at).map((c) => c.opportunity));
  }
  out['dead-letter'].push({
    topic: 'odds.ticks',
    partition: 2,
    offset: 41,
    key: 'k',
    reason: 'Unknown magic byte',
    payloadBase64: 'AAEC',
    at: T0,
  });
  return out;
}

describe('Avro schemas on the wire', () => {
  it('has a schema for every topic in schemas/topics.ts, each a valid Avro record', () => {
    for (const topic of Object.values(TOPICS)) {
      const schema = AVRO_SCHEMAS[topic];
      expect(schema, topic).toBeDefined();
      expect(avro.Type.forSchema(schema as avro.Schema).typeName, topic).toBe('record');
    }
  });

  it('round-trips real values of every topic, every opportunity kind included, in the Confluent wire format', async () => {
    const codec = new AvroCodec({ client: mockRegistry() });
    await codec.prepare();
    const values = sampleValues();
    const kinds = new Set(values.opportunities.map((o) => o.kind));
    expect([...kinds].sort()).toEqual(['arbitrage', 'ev', 'low_hold', 'middle']);
    for (const topic of Object.values(TOPICS)) {
      const sample = values[topic];
      expect(sample.length, topic).toBeGreaterThan(0);
      // One of each opportunity kind, and a spread of the rest.
      const picked: unknown[] =
        topic === TOPICS.opportunities
          ? [...kinds].map((k) => values.opportunities.find((o) => o.kind === k))
          : sample.filter((_, i) => i % Math.ceil(sample.length / 50) === 0);
      // The feed's topic: splits records as well as ticks.
      if (topic === TOPICS.rawTicks)
        picked.push(
          ...values['odds.ticks.raw'].filter(isRawSplits).slice(0, 5),
          ...values['odds.ticks.raw'].filter(isRawFutures).slice(0, 5),
        );
      for (const value of picked) {
        const bytes = await codec.encode(topic, value);
        expect(bytes[0], 'magic byte').toBe(0);
        expect(bytes.readInt32BE(1), 'schema id').toBeGreaterThan(0);
        expect(await codec.decode(topic, bytes), topic).toEqual(value);
      }
    }
  });

  it('round-trips an exchange price on every odds topic and an arbitrage’s capacity; a sportsbook’s price and a capacity-less arbitrage stay without them', async () => {
    const codec = new AvroCodec({ client: mockRegistry() });
    await codec.prepare();
    const values = sampleValues();
    const exchange = { back: 2.5, backSize: 2.17, lay: 2.52, laySize: null, volume: 1234.5, commission: 5 };
    const raw = values['odds.ticks.raw'].find((v) => !isRawSplits(v) && !isRawFutures(v)) as TopicValues['odds.ticks.raw'];
    const tick = values['odds.ticks'][0] as OddsTick;
    const change = values['odds.snapshot'].find((c) => c.row !== null) as TopicValues['odds.snapshot'];
    const arb = values.opportunities.find((o) => o.kind === 'arbitrage') as TopicValues['opportunities'];
    const roundTrip = async (topic: TopicName, value: unknown): Promise<Record<string, unknown>> => {
      const read = (await codec.decode(topic, await codec.encode(topic, value))) as Record<string, unknown>;
      expect(read, topic).toEqual(value);
      return read;
    };
    await roundTrip(TOPICS.rawTicks, { ...raw, exchange });
    await roundTrip(TOPICS.ticks, { ...tick, exchange });
    await roundTrip(TOPICS.snapshot, { ...change, row: { ...change.row, exchange } });
    await roundTrip(TOPICS.opportunities, { ...arb, maxStake: 4.37 });
    expect(await roundTrip(TOPICS.rawTicks, raw)).not.toHaveProperty('exchange');
    expect(await roundTrip(TOPICS.ticks, tick)).not.toHaveProperty('exchange');
    expect((await roundTrip(TOPICS.snapshot, change))['row']).not.toHaveProperty('exchange');
    expect(await roundTrip(TOPICS.opportunities, arb)).not.toHaveProperty('maxStake');
    // A combination found at a search rate below the exchange's own says so; one found at the board's rates does not.
    await roundTrip(TOPICS.opportunities, { ...arb, foundAtCommission: 2 });
    expect(await roundTrip(TOPICS.opportunities, arb)).not.toHaveProperty('foundAtCommission');
  });

  it('round-trips the sides of a combination that lays on an exchange; legs of one that does not stay without them', async () => {
    const codec = new AvroCodec({ client: mockRegistry() });
    await codec.prepare();
    const arb = sampleValues().opportunities.find((o) => o.kind === 'arbitrage') as TopicValues['opportunities'];
    const [first, second] = arb.legs;
    if (!first || !second) throw new Error('the sample arbitrage has fewer than two legs');
    const laid = {
      ...arb,
      legs: [
        { ...first, side: 'back' },
        { ...second, side: 'lay', layPrice: 2.32 },
      ],
      maxStake: 89.11,
    };
    const roundTrip = async (value: unknown): Promise<unknown> =>
      codec.decode(TOPICS.opportunities, await codec.encode(TOPICS.opportunities, value));
    expect(await roundTrip(laid)).toEqual(laid);
    const plain = (await roundTrip(arb)) as TopicValues['opportunities'];
    for (const leg of plain.legs) {
      expect(leg).not.toHaveProperty('side');
      expect(leg).not.toHaveProperty('layPrice');
    }
  });

  it('accepts an additive change (a new field with a default) and refuses a breaking one before anything is produced', async () => {
    const client = mockRegistry();
    await new AvroCodec({ client, schemas: { events: AVRO_SCHEMAS.events } }).prepare();
    const base = AVRO_SCHEMAS.events as { fields: unknown[] };
    const additive = { ...base, fields: [...base.fields, { name: 'venue', type: ['null', 'string'], default: null }] };
    await expect(new AvroCodec({ client, schemas: { events: additive } }).prepare()).resolves.toBeUndefined();
    expect((await client.getLatestSchemaMetadata('events-value')).schema).toContain('venue');

    // A process on the new schema reads what the old one wrote (the new field reads as its default).
    const oldWriter = new AvroCodec({ client, schemas: { events: AVRO_SCHEMAS.events } });
    await oldWriter.prepare();
    const event = {
      id: 'e1',
      sport: 'basketball',
      league: 'nba',
      homeTeamId: 'a',
      awayTeamId: 'b',
      startTime: 1,
      status: 'upcoming',
      isLive: false,
      externalIds: { pinnacle: 'p1' },
      updatedAt: 2,
    };
    const newReader = new AvroCodec({ client, schemas: { events: additive } });
    await newReader.prepare();
    expect(await newReader.decode('events', await oldWriter.encode('events', event))).toEqual({ ...event, venue: null });

    // A required field with no default: old records cannot be read with it.
    const breaking = { ...base, fields: [...base.fields, { name: 'attendance', type: 'int' }] };
    let produced = 0;
    const codec = new AvroCodec({ client, schemas: { events: breaking } });
    await expect(
      codec.prepare().then(() => {
        produced++;
      }),
    ).rejects.toThrow(SchemaCompatibilityError);
    await expect(new AvroCodec({ client, schemas: { events: breaking } }).prepare()).rejects.toThrow(
      /events-value is not BACKWARD compatible/,
    );
    expect(produced).toBe(0);
    // The registry still holds the additive version as the latest.
    expect((await client.getLatestSchemaMetadata('events-value')).schema).not.toContain('attendance');
  });

  it('writes what the Confluent Avro deserializer reads, and reads what its serializer writes', async () => {
    const client = mockRegistry();
    const codec = new AvroCodec({ client });
    await codec.prepare();
    const [event] = sampleValues().events;
    const theirs = new AvroDeserializer(client, SerdeType.VALUE, {});
    expect(await theirs.deserialize(TOPICS.events, codec.encode(TOPICS.events, event))).toEqual(event);
    const serializer = new AvroSerializer(client, SerdeType.VALUE, { useLatestVersion: true });
    expect(await codec.decode(TOPICS.events, await serializer.serialize(TOPICS.events, event))).toEqual(event);
  });

  it('hands out bytes of their own: a record encoded later, a larger one included, leaves earlier ones as they were', async () => {
    const codec = new AvroCodec({ client: mockRegistry() });
    await codec.prepare();
    const letter = (payload: string): TopicValues['dead-letter'] => ({
      topic: TOPICS.ticks,
      partition: 1,
      offset: 7,
      key: 'k',
      reason: 'test',
      payloadBase64: payload,
      at: 1,
    });
    const small = codec.encode(TOPICS.deadLetter, letter('a'));
    const before = Buffer.from(small);
    // Longer than the codec's working buffer: it grows to take it.
    const large = codec.encode(TOPICS.deadLetter, letter('b'.repeat(200_000)));
    expect(small.equals(before)).toBe(true);
    expect(codec.decode(TOPICS.deadLetter, small)).toEqual(letter('a'));
    expect(codec.decode(TOPICS.deadLetter, large)).toEqual(letter('b'.repeat(200_000)));
  });

  it('refuses a record with bytes after its Avro body', async () => {
    const codec = new AvroCodec({ client: mockRegistry() });
    await codec.prepare();
    const [event] = sampleValues().events;
    const bytes = codec.encode(TOPICS.events, event);
    expect(() => codec.decode(TOPICS.events, Buffer.concat([bytes, Buffer.from([0])]))).toThrow('trailing data');
    expect(() => codec.decode(TOPICS.events, bytes.subarray(0, bytes.length - 1))).toThrow('truncated buffer');
  });

  it('refuses to decode bytes that are not in its format', async () => {
    const codec = new AvroCodec({ client: mockRegistry() });
    await codec.prepare();
    expect(() => codec.decode('events', Buffer.from('{"id":"x"}'))).toThrow();
  });
});
