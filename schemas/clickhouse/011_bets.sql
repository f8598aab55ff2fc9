-- The bet ledger: bets accounts logged, the durable copy of the compacted `bets` topic. Every API
-- replica loads it at start and then follows the topic, as with API keys. Read with FINAL: a
-- deleted bet is a newer version with deleted_at set. Grades are not stored: they are computed
-- from closing_odds and game_state when read, by the recipe the bet carries.
CREATE TABLE IF NOT EXISTS bets
(
    id                String,
    account_id        String,
    event_id          String,
    sport             LowCardinality(String),
    league            LowCardinality(String),
    event_start_time  DateTime64(3, 'UTC'),
    market            LowCardinality(String),
    participant       Nullable(String),
    stat_category     LowCardinality(Nullable(String)),
    selection         LowCardinality(String),
    line              Nullable(Float64),
    sportsbook        LowCardinality(String),
    odds_american     Int32,
    odds_decimal      Float64,
    stake             Float64,
    placed_at         DateTime64(3, 'UTC'),
    source_id         Nullable(String),
    devig_method      LowCardinality(String),
    sharp_book        LowCardinality(Nullable(String)),
    created_at        DateTime64(3, 'UTC'),
    deleted_at        Nullable(DateTime64(3, 'UTC')),
    version           UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (account_id, id);
