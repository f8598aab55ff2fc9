import { describe, expect, it } from 'vitest';
import { AVRO_SCHEMAS } from './avro.js';
import type { OPPORTUNITY_COMMON_FIELDS, OPPORTUNITY_KIND_FIELDS } from './avro.js';
import type {
  AccountRecord,
  AlertRuleRecord,
  ApiKeyRecord,
  ConfidenceInputs,
  DivergenceSignal,
  EvMethodValues,
  EvOpportunity,
  ExchangeQuote,
  FutureEvOpportunity,
  FutureFairByMethod,
  FutureFairSelection,
  FuturePrice,
  FuturesMarket,
  MarketSignals,
  MiddleOpportunity,
  OddsRow,
  OpportunityCommon,
  OpportunityEventInfo,
  OpportunityLeg,
  OpportunityPrice,
  RawFutureSelection,
  RawFutures,
  RawGameState,
  RawSplitSide,
  RawSplits,
  RawTick,
  RlmSignal,
  SplitSideRecord,
  TopicValues,
} from './index.js';

// schemas/avro.ts writes every record's fields a second time beside the TypeScript types. This
// holds the two together: each Avro record (as `record` types it, with its field names) against
// the TypeScript type it carries. A field added to one side only is a type error below, which
// names the fields that differ; a new Avro record without a line here fails the runtime check.

type Schemas = typeof AVRO_SCHEMAS;
interface RecordLike {
  fields: readonly { name: string; type: unknown }[];
}

/** The schema inside nullable, array and map types. */
type Inner<T> = T extends readonly ['null', infer X]
  ? Inner<X>
  : T extends { type: 'array'; items: infer X }
    ? Inner<X>
    : T extends { type: 'map'; values: infer X }
      ? Inner<X>
      : T;
/** The type of field `N` (a field whose name is a union, as `DEVIG_CHOICES.map` makes, included). */
type FieldType<F, N extends string> = F extends { name: infer M; type: infer T } ? (N extends M ? T : never) : never;
/** The record a field of record `R` holds (through null, array and map). */
type At<R, N extends string> = R extends RecordLike ? Inner<FieldType<R['fields'][number], N>> : never;
type AvroFields<R> = R extends RecordLike ? R['fields'][number]['name'] : never;
/** Every key of a type, across the members of a union. */
type TsFields<T> = T extends unknown ? keyof T & string : never;

/** `true` when the two sides have the same fields; otherwise what each has that the other lacks. */
type Held<A, T> = [AvroFields<A>] extends [TsFields<T>]
  ? [TsFields<T>] extends [AvroFields<A>]
    ? true
    : { onlyInTypeScript: Exclude<TsFields<T>, AvroFields<A>> }
  : { onlyInAvro: Exclude<AvroFields<A>, TsFields<T>> };

type FeedWire = Schemas['odds.ticks.raw'];
type OpportunityWire = Schemas['opportunities'];
type FuturesMarketWire = Schemas['futures.markets'];
type FutureEvWire = At<FuturesMarketWire, 'opportunities'>;
type AccountWire = Schemas['accounts'];

/** Every record of the wire contract, by its Avro name, with the TypeScript type it carries. */
interface Pairs {
  RawTick: [At<FeedWire, 'tick'>, RawTick];
  RawExchangeQuote: [At<At<FeedWire, 'tick'>, 'exchange'>, ExchangeQuote];
  TickExchangeQuote: [At<Schemas['odds.ticks'], 'exchange'>, ExchangeQuote];
  RowExchangeQuote: [At<At<Schemas['odds.snapshot'], 'row'>, 'exchange'>, ExchangeQuote];
  RawSplits: [At<FeedWire, 'splits'>, RawSplits];
  RawSplitSide: [At<At<FeedWire, 'splits'>, 'sides'>, RawSplitSide];
  RawFutures: [At<FeedWire, 'futures'>, RawFutures];
  RawFutureSelection: [At<At<FeedWire, 'futures'>, 'selections'>, RawFutureSelection];
  OddsTick: [Schemas['odds.ticks'], TopicValues['odds.ticks']];
  CanonicalEvent: [Schemas['events'], TopicValues['events']];
  OddsChange: [Schemas['odds.snapshot'], TopicValues['odds.snapshot']];
  OddsRow: [At<Schemas['odds.snapshot'], 'row'>, OddsRow];
  // One record for the four kinds: the union's fields, each kind's own ones nullable.
  Opportunity: [OpportunityWire, TopicValues['opportunities']];
  OpportunityEventInfo: [At<OpportunityWire, 'event'>, OpportunityEventInfo];
  OpportunityLeg: [At<OpportunityWire, 'legs'>, OpportunityLeg];
  OpportunityPrice: [At<OpportunityWire, 'references'>, OpportunityPrice];
  EvMethods: [At<OpportunityWire, 'methods'>, EvOpportunity['methods']];
  EvMethodValues: [At<At<OpportunityWire, 'methods'>, 'power'>, EvMethodValues];
  EvMethodNumbers: [At<OpportunityWire, 'peakEvPercent'>, EvOpportunity['peakEvPercent']];
  ConfidenceInputs: [At<OpportunityWire, 'confidence'>, ConfidenceInputs];
  MiddleModel: [At<OpportunityWire, 'model'>, MiddleOpportunity['model']];
  DeadLetter: [Schemas['dead-letter'], TopicValues['dead-letter']];
  AccountChange: [AccountWire, TopicValues['accounts']];
  AccountRecord: [At<AccountWire, 'account'>, AccountRecord];
  ApiKeyRecord: [At<AccountWire, 'key'>, ApiKeyRecord];
  AlertRuleRecord: [At<AccountWire, 'rule'>, AlertRuleRecord];
  SplitsSnapshot: [Schemas['splits'], TopicValues['splits']];
  SplitSideRecord: [At<Schemas['splits'], 'sides'>, SplitSideRecord];
  MarketSignals: [At<Schemas['splits'], 'signals'>, MarketSignals];
  DivergenceSignal: [At<At<Schemas['splits'], 'signals'>, 'divergence'>, DivergenceSignal];
  RlmSignal: [At<At<Schemas['splits'], 'signals'>, 'rlm'>, RlmSignal];
  // The wire's extras are JSON text of the same field (pipeline/bus/codec.ts).
  RawGameState: [Schemas['gamestate.raw'], RawGameState];
  GameState: [Schemas['gamestate'], TopicValues['gamestate']];
  FuturesQuote: [Schemas['futures'], TopicValues['futures']];
  FuturePrice: [At<Schemas['futures'], 'selections'>, FuturePrice];
  FuturesMarket: [FuturesMarketWire, TopicValues['futures.markets']];
  FutureFairSelection: [At<FuturesMarketWire, 'selections'>, FutureFairSelection];
  FutureFairByMethod: [At<At<FuturesMarketWire, 'selections'>, 'fair'>, FutureFairByMethod];
  FutureEvOpportunity: [FutureEvWire, FutureEvOpportunity];
  FutureEvMethods: [At<FutureEvWire, 'methods'>, FutureEvOpportunity['methods']];
  FutureEvMethodValues: [At<At<FutureEvWire, 'methods'>, 'power'>, FutureEvOpportunity['methods']['power']];
  FutureBookHold: [At<FuturesMarketWire, 'books'>, FuturesMarket['books'][number]];
  BetRecord: [Schemas['bets'], TopicValues['bets']];
}

/** Records of the wire's own making, with no TypeScript twin: the feed's wrapper of its three kinds (codec.ts). */
const WIRE_ONLY = ['FeedRecord'];

const HELD: { [K in keyof Pairs]: Held<Pairs[K][0], Pairs[K][1]> } = {
  RawTick: true,
  RawExchangeQuote: true,
  TickExchangeQuote: true,
  RowExchangeQuote: true,
  RawSplits: true,
  RawSplitSide: true,
  RawFutures: true,
  RawFutureSelection: true,
  OddsTick: true,
  CanonicalEvent: true,
  OddsChange: true,
  OddsRow: true,
  Opportunity: true,
  OpportunityEventInfo: true,
  OpportunityLeg: true,
  OpportunityPrice: true,
  EvMethods: true,
  EvMethodValues: true,
  EvMethodNumbers: true,
  ConfidenceInputs: true,
  MiddleModel: true,
  DeadLetter: true,
  AccountChange: true,
  AccountRecord: true,
  ApiKeyRecord: true,
  AlertRuleRecord: true,
  SplitsSnapshot: true,
  SplitSideRecord: true,
  MarketSignals: true,
  DivergenceSignal: true,
  RlmSignal: true,
  RawGameState: true,
  GameState: true,
  FuturesQuote: true,
  FuturePrice: true,
  FuturesMarket: true,
  FutureFairSelection: true,
  FutureFairByMethod: true,
  FutureEvOpportunity: true,
  FutureEvMethods: true,
  FutureEvMethodValues: true,
  FutureBookHold: true,
  BetRecord: true,
};

/** The codec's field lists of the opportunity record are held to the types the same way. */
const OPPORTUNITY_LISTS: {
  common: Held<{ fields: { name: (typeof OPPORTUNITY_COMMON_FIELDS)[number]; type: 'string' }[] }, OpportunityCommon>;
} & {
  [K in keyof typeof OPPORTUNITY_KIND_FIELDS]: Held<
    { fields: { name: (typeof OPPORTUNITY_KIND_FIELDS)[K][number] | keyof OpportunityCommon; type: 'string' }[] },
    Extract<TopicValues['opportunities'], { kind: K }>
  >;
} = { common: true, ev: true, arbitrage: true, middle: true, low_hold: true };

/** The names of every record defined in a schema (a later use by name is not a definition). */
function recordNames(schema: unknown, into: string[] = []): string[] {
  if (Array.isArray(schema)) for (const s of schema) recordNames(s, into);
  else if (schema !== null && typeof schema === 'object') {
    const s = schema as Record<string, unknown>;
    if (s['type'] === 'record') {
      into.push(String(s['name']));
      for (const f of s['fields'] as { type: unknown }[]) recordNames(f.type, into);
    } else recordNames(s['items'] ?? s['values'], into);
  }
  return into;
}

describe('Avro schemas and TypeScript types', () => {
  it('every Avro record is held against its TypeScript type (or is one of the wire-only wrappers)', () => {
    const defined = Object.values(AVRO_SCHEMAS).flatMap((s) => recordNames(s));
    expect(new Set(defined).size, 'a record name defined twice').toBe(defined.length);
    expect(defined.sort()).toEqual([...Object.keys(HELD), ...WIRE_ONLY].sort());
    expect(Object.values(HELD).every((v) => v === true)).toBe(true);
    expect(Object.values(OPPORTUNITY_LISTS).every((v) => v === true)).toBe(true);
  });
});
