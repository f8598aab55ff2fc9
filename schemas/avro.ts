import { DEVIG_CHOICES, DEVIG_METHODS } from './opportunities.js';
import type { TopicName } from './topics.js';

/**
 * Avro schemas of every topic's value: the wire contract on Kafka, registered in the Schema
 * Registry under `<topic>-value` with BACKWARD compatibility (a new schema must read what the
 * previous one wrote: add fields with defaults, never remove or retype one). Times are epoch
 * milliseconds (long), prices American (int), percentages and probabilities doubles. Market,
 * selection and status ids are strings, not Avro enums, so that adding one stays compatible.
 * A test walks `TOPICS`: a topic added without a schema here fails it; another holds each record's
 * fields to the TypeScript type it carries (`avro-types.test.ts`), so a field added on one side only
 * fails the typecheck.
 */
export type AvroSchema = Record<string, unknown> | string | readonly unknown[];

/** A field as `record` takes it: name, type and, for a field added later, its default. */
type FieldSpec = readonly [string, AvroSchema, unknown?];

/**
 * A record schema, typed with its fields' names and types as written, so that a test can hold
 * each record against the TypeScript type it carries (schemas/avro-types.test.ts).
 */
export type AvroRecord<F extends readonly FieldSpec[] = readonly FieldSpec[]> = {
  type: 'record';
  name: string;
  namespace: string;
  doc?: string;
  fields: { -readonly [K in keyof F]: { name: F[K][0]; type: F[K][1]; default?: unknown } };
};

const S = 'string';
const D = 'double';
const L = 'long';
const I = 'int';
const B = 'boolean';
const NS = 'platform.odds';

function opt<const T extends AvroSchema>(type: T): ['null', T] {
  return ['null', type];
}

/**
 * A record; nullable fields default to null so that a reader can add them later. A field added
 * to an existing record names its default as a third item (old records read as that value).
 */
function record<const F extends readonly FieldSpec[]>(name: string, fields: F, doc?: string): AvroRecord<F> {
  return {
    type: 'record',
    name,
    namespace: NS,
    ...(doc ? { doc } : {}),
    fields: fields.map(([field, type, dflt]) =>
      dflt !== undefined
        ? { name: field, type, default: dflt }
        : Array.isArray(type) && type[0] === 'null'
          ? { name: field, type, default: null }
          : { name: field, type },
    ) as AvroRecord<F>['fields'],
  };
}

/**
 * An exchange's two sides of one outcome (ExchangeQuote), named after the record that holds it:
 * every record name here is defined once (avro-types.test.ts).
 */
const exchangeQuote = (name: string) =>
  record(
    name,
    [
      ['back', opt(D)],
      ['backSize', opt(D)],
      ['lay', opt(D)],
      ['laySize', opt(D)],
      ['volume', opt(D)],
      ['commission', D],
    ],
    'Best back and lay prices (decimal, before commission), the sizes at them, traded volume and commission percent.',
  );

const rawTick = record(
  'RawTick',
  [
    ['book', S],
    ['bookEventId', S],
    ['sport', S],
    ['league', S],
    ['homeTeam', S],
    ['awayTeam', S],
    ['startTime', L],
    ['isLive', B],
    ['market', S],
    ['outcome', S],
    ['line', opt(D)],
    ['participant', opt(S)],
    ['statCategory', opt(S)],
    ['priceAmerican', opt(I)],
    ['status', S],
    ['ts', L],
    ['selectionId', opt(S)],
    ['oddsChangedAt', opt(L)],
    ['observedAt', opt(L)],
    // Added later, exchange books only: null (sportsbooks, records written before) is absent.
    ['exchange', opt(exchangeQuote('RawExchangeQuote'))],
  ],
  'A price as one book published it, in its own names.',
);

const oddsTick = record(
  'OddsTick',
  [
    ['eventId', S],
    ['book', S],
    ['market', S],
    ['selection', S],
    ['line', opt(D)],
    ['participant', opt(S)],
    ['statCategory', opt(S)],
    ['priceAmerican', opt(I)],
    ['status', S],
    ['ts', L],
    ['isLive', B],
    ['bookEventId', S],
    ['selectionId', opt(S)],
    ['oddsChangedAt', opt(L)],
    ['observedAt', opt(L)],
    ['exchange', opt(exchangeQuote('TickExchangeQuote'))],
  ],
  'A price on a canonical event and selection.',
);

const canonicalEvent = record('CanonicalEvent', [
  ['id', S],
  ['sport', S],
  ['league', S],
  ['homeTeamId', S],
  ['awayTeamId', S],
  ['startTime', L],
  ['status', S],
  ['isLive', B],
  ['externalIds', { type: 'map', values: S }],
  ['updatedAt', L],
]);

const oddsChange = record(
  'OddsChange',
  [
    ['key', S],
    ['eventId', S],
    [
      'row',
      opt(
        record('OddsRow', [
          ['id', S],
          ['eventId', S],
          ['book', S],
          ['market', S],
          ['selection', S],
          ['line', opt(D)],
          ['participant', opt(S)],
          ['statCategory', opt(S)],
          ['priceAmerican', I],
          ['priceDecimal', D],
          ['probability', D],
          ['ts', L],
          ['isLive', B],
          ['bookEventId', S],
          ['selectionId', opt(S)],
          // Added later (suspended rows stay, locked): records written before read as active.
          ['isActive', B, true],
          ['suspendedSince', opt(L)],
          // Added later still: null (records written before) reads as `ts` (upgradeOddsChange).
          ['oddsChangedAt', opt(L)],
          ['observedAt', opt(L)],
          ['exchange', opt(exchangeQuote('RowExchangeQuote'))],
        ]),
      ),
    ],
    ['changedAt', L],
  ],
  'The latest price of one row; row null: the row was removed (pulled); isActive false: suspended, price frozen.',
);

const PRICE_FIELDS = [
  ['book', S],
  ['selection', S],
  ['line', opt(D)],
  ['priceAmerican', I],
  ['priceDecimal', D],
  ['ts', L],
  ['rowId', S],
  ['bookEventId', S],
  ['selectionId', opt(S)],
] as const satisfies readonly FieldSpec[];
const methodValues = record('EvMethodValues', [
  ['fairProbability', D],
  ['noVigOdds', D],
  ['evPercent', D],
  ['kellyPercent', D],
  ['confidenceScore', D],
]);
const METHOD = `${NS}.EvMethodValues`;

/** Fields every kind has; the kind's own fields follow, nullable, and are set only for that kind. */
export const OPPORTUNITY_COMMON_FIELDS = [
  'id',
  'kind',
  'eventId',
  'situation',
  'market',
  'family',
  'participant',
  'statCategory',
  'event',
  'legs',
  'oldestOddsTs',
  'oldestOddsAgeSeconds',
  'freshUntil',
  'staleAfterSeconds',
  'possiblyStale',
  'warnings',
  'detectedAt',
  'lastSeenAt',
  'expiredAt',
  'expireReason',
  'value',
  'peakValue',
] as const;

/** Each kind's own fields, in the order the processors build them. */
export const OPPORTUNITY_KIND_FIELDS = {
  ev: [
    'book',
    'selection',
    'line',
    'priceAmerican',
    'priceDecimal',
    'bookEventId',
    'selectionId',
    'methods',
    'sharpBook',
    'sharpBooks',
    'references',
    'marketWidth',
    'bookCount',
    'arbAvailable',
    'arbProfitPercent',
    'confidence',
    'peakEvPercent',
  ],
  arbitrage: ['line', 'profitPercent', 'impliedSum', 'maxStake', 'foundAtCommission'],
  middle: [
    'lowerBound',
    'upperBound',
    'windowSize',
    'windowOutcomes',
    'hitProbability',
    'evPercent',
    'missProfitPercent',
    'maxProfitPercent',
    'worstCaseProfitPercent',
    'model',
    'maxStake',
    'foundAtCommission',
  ],
  low_hold: ['line', 'holdPercent', 'impliedSum', 'maxStake', 'foundAtCommission'],
} as const satisfies Record<string, readonly string[]>;

const opportunity = record(
  'Opportunity',
  [
    ['id', S],
    ['kind', S],
    ['eventId', S],
    ['situation', S],
    ['market', S],
    ['family', S],
    ['participant', opt(S)],
    ['statCategory', opt(S)],
    [
      'event',
      record('OpportunityEventInfo', [
        ['sport', S],
        ['league', S],
        ['homeTeamId', S],
        ['awayTeamId', S],
        ['startTime', L],
        ['isLive', B],
      ]),
    ],
    [
      'legs',
      {
        type: 'array',
        items: record('OpportunityLeg', [
          ...PRICE_FIELDS,
          ['stakeShare', D],
          // Added with exchange lays: null on backs and on records written before.
          ['side', opt(S)],
          ['layPrice', opt(D)],
          // Added with per-account commission: null on sportsbook legs and on records written before.
          ['commission', opt(D)],
          ['backPrice', opt(D)],
          ['maxLegStake', opt(D)],
        ]),
      },
    ],
    ['oldestOddsTs', L],
    ['oldestOddsAgeSeconds', D],
    // Added later: null on records written before (read with the fixed thresholds).
    ['freshUntil', opt(L)],
    ['staleAfterSeconds', opt(D)],
    ['possiblyStale', B],
    ['warnings', { type: 'array', items: S }],
    ['detectedAt', L],
    ['lastSeenAt', L],
    ['expiredAt', opt(L)],
    ['expireReason', opt(S)],
    ['value', D],
    ['peakValue', D],
    // kind-specific (null for the other kinds)
    ['book', opt(S)],
    ['selection', opt(S)],
    ['line', opt(D)],
    ['priceAmerican', opt(I)],
    ['priceDecimal', opt(D)],
    ['bookEventId', opt(S)],
    ['selectionId', opt(S)],
    [
      'methods',
      opt(
        record(
          'EvMethods',
          DEVIG_CHOICES.map((m, i) => [m, i === 0 ? methodValues : METHOD] as const),
        ),
      ),
    ],
    ['sharpBook', opt(S)],
    ['sharpBooks', opt({ type: 'array', items: S })],
    ['references', opt({ type: 'array', items: record('OpportunityPrice', PRICE_FIELDS) })],
    ['marketWidth', opt(D)],
    ['bookCount', opt(I)],
    ['arbAvailable', opt(B)],
    ['arbProfitPercent', opt(D)],
    [
      'confidence',
      opt(
        record('ConfidenceInputs', [
          ['sharpCount', I],
          ['marketWidth', opt(D)],
          ['referenceHoldPercent', D],
          ['bookCount', I],
          // Added later (the confidence score's second definition): records written before read
          // as unknown, which the score gives its middle points (docs/opportunities.md).
          ['bookChangedAt', opt(L)],
          ['referenceChangedAt', opt(L)],
          ['otherBooks', I, 0],
          ['otherBooksInCompany', I, 0],
        ]),
      ),
    ],
    [
      'peakEvPercent',
      opt(
        record(
          'EvMethodNumbers',
          DEVIG_CHOICES.map((m) => [m, D] as const),
        ),
      ),
    ],
    ['profitPercent', opt(D)],
    ['impliedSum', opt(D)],
    ['holdPercent', opt(D)],
    ['lowerBound', opt(D)],
    ['upperBound', opt(D)],
    ['windowSize', opt(D)],
    ['windowOutcomes', opt({ type: 'array', items: D })],
    ['hitProbability', opt(D)],
    ['evPercent', opt(D)],
    ['missProfitPercent', opt(D)],
    ['maxProfitPercent', opt(D)],
    ['worstCaseProfitPercent', opt(D)],
    [
      'model',
      opt(
        record('MiddleModel', [
          ['mean', D],
          ['sigma', D],
        ]),
      ),
    ],
    // Added later: the stake an exchange leg's size allows; null when no leg has a size.
    ['maxStake', opt(D)],
    // Added with the search at the lowest commission rate in use: null on records found at the board's rates.
    ['foundAtCommission', opt(D)],
  ],
  'One version of an opportunity; kind says which of the nullable fields are set.',
);

const rawSplits = record(
  'RawSplits',
  [
    ['book', S],
    ['bookEventId', S],
    ['sport', S],
    ['league', S],
    ['homeTeam', S],
    ['awayTeam', S],
    ['startTime', L],
    ['isLive', B],
    ['kind', S],
    ['ts', L],
    [
      'sides',
      {
        type: 'array',
        items: record('RawSplitSide', [
          ['market', S],
          ['outcome', S],
          ['betPct', D],
          ['handlePct', D],
        ]),
      },
    ],
  ],
  'Betting splits as one book published them, in its own names.',
);

/**
 * The feed's topic carries prices and splits. Ticks carry no tag (the hot path stays as it was),
 * so the wire value is a record with exactly one of the two set: a union at the top would leave
 * no room for an additive change, a wrapper does.
 */
const rawFutures = record(
  'RawFutures',
  [
    ['kind', S],
    ['book', S],
    ['bookMarketId', S],
    ['sport', S],
    ['league', S],
    ['market', S],
    ['season', S],
    ['subject', opt(S)],
    ['title', S],
    ['settlesAt', L],
    ['ts', L],
    [
      'selections',
      {
        type: 'array',
        items: record('RawFutureSelection', [
          ['name', S],
          ['line', opt(D)],
          ['priceAmerican', I],
        ]),
      },
    ],
  ],
  "One book's board of one outright market, in its own names; no selections: the book pulled it.",
);

const feedRecord = record(
  'FeedRecord',
  [
    ['tick', opt(rawTick)],
    ['splits', opt(rawSplits)],
    ['futures', opt(rawFutures)],
  ],
  'One record of the feed: a price (tick), betting splits (splits) or a futures board (futures); the others are null.',
);

/** What identifies a canonical futures market, on both futures topics. */
const FUTURE_MARKET_FIELDS = [
  ['futureId', S],
  ['name', S],
  ['sport', S],
  ['league', S],
  ['futureType', S],
  ['market', S],
  ['season', S],
  ['subjectTeamId', opt(S)],
  ['settlesAt', L],
] as const satisfies readonly FieldSpec[];

const futuresQuote = record(
  'FuturesQuote',
  [
    ...FUTURE_MARKET_FIELDS,
    ['key', S],
    ['book', S],
    ['bookMarketId', S],
    ['ts', L],
    [
      'selections',
      {
        type: 'array',
        items: record('FuturePrice', [
          ['selection', S],
          ['selectionId', S],
          ['line', opt(D)],
          ['priceAmerican', I],
          ['priceDecimal', D],
          ['probability', D],
        ]),
      },
    ],
  ],
  "One book's board of one canonical futures market; no selections: pulled.",
);

const futuresMarket = record(
  'FuturesMarket',
  [
    ...FUTURE_MARKET_FIELDS,
    ['references', { type: 'array', items: S }],
    [
      'selections',
      {
        type: 'array',
        items: record('FutureFairSelection', [
          ['selection', S],
          ['selectionId', S],
          ['line', opt(D)],
          [
            'fair',
            opt(
              record(
                'FutureFairByMethod',
                DEVIG_METHODS.map((m) => [m, D] as const),
              ),
            ),
          ],
          ['bestBook', S],
          ['bestPriceAmerican', I],
          ['bestPriceDecimal', D],
          ['bookCount', I],
        ]),
      },
    ],
    [
      'opportunities',
      {
        type: 'array',
        items: record('FutureEvOpportunity', [
          ['id', S],
          ['futureId', S],
          ['book', S],
          ['selection', S],
          ['selectionId', S],
          ['line', opt(D)],
          ['priceAmerican', I],
          ['priceDecimal', D],
          ['oddsTs', L],
          [
            'methods',
            record(
              'FutureEvMethods',
              DEVIG_CHOICES.map(
                (m, i) =>
                  [
                    m,
                    i === 0
                      ? record('FutureEvMethodValues', [
                          ['fairProbability', D],
                          ['noVigOdds', D],
                          ['evPercent', D],
                          ['kellyPercent', D],
                        ])
                      : `${NS}.FutureEvMethodValues`,
                  ] as const,
              ),
            ),
          ],
          ['evPercent', D],
          ['sharpBooks', { type: 'array', items: S }],
          ['referenceHoldPercent', D],
          ['bookCount', I],
          ['detectedAt', L],
          ['lastSeenAt', L],
        ]),
      },
    ],
    [
      'books',
      {
        type: 'array',
        items: record('FutureBookHold', [
          ['book', S],
          ['holdPercent', D],
          ['ts', L],
        ]),
      },
    ],
    ['updatedAt', L],
  ],
  "A futures market's fair line (the references de-vigged by each method) and its current +EV prices.",
);

const marketSignals = record('MarketSignals', [
  [
    'divergence',
    opt(
      record('DivergenceSignal', [
        ['sharpSide', S],
        ['gap', D],
      ]),
    ),
  ],
  [
    'rlm',
    opt(
      record('RlmSignal', [
        ['publicSide', S],
        ['publicBetPct', D],
        ['sharpSide', S],
        ['openLine', D],
        ['currentLine', D],
        ['move', D],
      ]),
    ),
  ],
]);

const splitsSnapshot = record(
  'SplitsSnapshot',
  [
    ['key', S],
    ['eventId', S],
    ['book', S],
    ['ts', L],
    ['sport', S],
    ['league', S],
    ['homeTeamId', S],
    ['awayTeamId', S],
    ['startTime', L],
    ['isLive', B],
    [
      'sides',
      {
        type: 'array',
        items: record('SplitSideRecord', [
          ['market', S],
          ['side', S],
          ['betPct', D],
          ['handlePct', D],
          ['line', opt(D)],
          ['priceAmerican', opt(I)],
        ]),
      },
    ],
    // Keyed by split market (spread, total, moneyline): only the markets with signals are present.
    ['signals', { type: 'map', values: marketSignals }],
  ],
  "A book's splits on a canonical event, joined to its lines, with the signals they show.",
);

/**
 * Score, period, clock: what raw and canonical game states share. `extras` (corners, cards, sets,
 * power play, outs: a different handful per sport, each optional) travels as JSON text, so that a
 * sport's new extra needs no schema change and absent stays distinct from null.
 */
const SCOREBOARD = [
  ['status', S],
  ['homeScore', D],
  ['awayScore', D],
  ['period', opt(S)],
  ['clock', opt(S)],
  ['possession', opt(S)],
  ['server', opt(S)],
  ['lastPlay', opt(S)],
  ['extras', S],
] as const satisfies readonly FieldSpec[];

const rawGameState = record(
  'RawGameState',
  [['kind', S], ['book', S], ['bookEventId', S], ['sport', S], ['league', S], ['homeTeam', S], ['awayTeam', S], ['ts', L], ...SCOREBOARD],
  "A game's state as one book reports it, in its own names.",
);

const gameState = record(
  'GameState',
  [
    ['eventId', S],
    ['sport', S],
    ['league', S],
    ['homeTeamId', S],
    ['awayTeamId', S],
    ['primaryBook', S],
    ['bookCount', I],
    ['updatedAt', L],
    ...SCOREBOARD,
  ],
  "A game's state on the canonical event.",
);

/** The `accounts` changelog: an account or a key, as the record's `kind` says (the other is null). */
const accountChange = record(
  'AccountChange',
  [
    ['kind', S],
    [
      'account',
      opt(
        record('AccountRecord', [
          ['id', S],
          ['name', S],
          ['createdAt', L],
          ['version', L],
          // Added with per-account commission: null on accounts without a rate and on records written before.
          ['exchangeCommission', opt(D)],
        ]),
      ),
    ],
    [
      'key',
      opt(
        record('ApiKeyRecord', [
          ['id', S],
          ['accountId', S],
          ['hash', S],
          ['preview', S],
          ['tier', S],
          ['name', opt(S)],
          ['createdAt', L],
          ['updatedAt', L],
          ['active', B],
          ['expiresAt', opt(L)],
          ['revokedAt', opt(L)],
          ['requestsPerMinute', opt(I)],
          ['replacedBy', opt(S)],
          ['version', L],
        ]),
      ),
    ],
    // Added after keys: optional with a null default, so the schema stays BACKWARD compatible.
    [
      'rule',
      opt(
        record('AlertRuleRecord', [
          ['id', S],
          ['accountId', S],
          ['keyId', S],
          ['tier', S],
          ['name', opt(S)],
          ['kind', S],
          ['filtersJson', S],
          ['webhookUrl', S],
          ['secret', S],
          ['createdAt', L],
          ['updatedAt', L],
          ['active', B],
          ['deletedAt', opt(L)],
          ['version', L],
        ]),
      ),
    ],
  ],
  'An account, an API key (its SHA-256, never the secret) or an alert rule.',
);

/** The `bets` changelog: one logged bet, its latest version (a deleted bet keeps its record with `deletedAt`). */
const betRecord = record(
  'BetRecord',
  [
    ['id', S],
    ['accountId', S],
    ['eventId', S],
    ['sport', S],
    ['league', S],
    ['eventStartTime', L],
    ['market', S],
    ['participant', opt(S)],
    ['statCategory', opt(S)],
    ['selection', S],
    ['line', opt(D)],
    ['book', S],
    ['priceAmerican', I],
    ['priceDecimal', D],
    ['stake', D],
    ['placedAt', L],
    ['sourceId', opt(S)],
    ['devigMethod', S],
    ['sharpBook', opt(S)],
    ['createdAt', L],
    ['deletedAt', opt(L)],
    ['version', L],
  ],
  'A bet an account logged, graded against the close by the API.',
);

export const AVRO_SCHEMAS = {
  'odds.ticks.raw': feedRecord,
  'odds.ticks': oddsTick,
  events: canonicalEvent,
  'odds.snapshot': oddsChange,
  opportunities: opportunity,
  'dead-letter': record(
    'DeadLetter',
    [
      ['topic', S],
      ['partition', I],
      ['offset', L],
      ['key', S],
      ['reason', S],
      ['payloadBase64', opt(S)],
      ['at', L],
    ],
    'A record a consumer could not decode.',
  ),
  accounts: accountChange,
  splits: splitsSnapshot,
  'gamestate.raw': rawGameState,
  gamestate: gameState,
  futures: futuresQuote,
  'futures.markets': futuresMarket,
  bets: betRecord,
} satisfies Record<TopicName, AvroSchema>;
