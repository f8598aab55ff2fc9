-- Every opportunity the processors found: one row per occurrence (an id that expires and comes
-- back later is a new occurrence with a new detected_at), replaced by its newer versions while
-- it lasts. Read with FINAL (or argMax by version) to get the last version of each occurrence.
--   value / peak_value: ev -> EV % under the power de-vig (per-method values in `record`),
--   arbitrage -> guaranteed profit %, middle -> model EV %, low_hold -> hold % (peak = lowest).
--   record: the full opportunity as JSON (camelCase, as on the `opportunities` topic), e.g.
--   JSONExtractFloat(record, 'methods', 'shin', 'evPercent') or JSONExtractFloat(record, 'hitProbability').
CREATE TABLE IF NOT EXISTS opportunities
(
    id                String,
    kind              LowCardinality(String),
    event_id          String,
    sport             LowCardinality(String),
    league            LowCardinality(String),
    market            LowCardinality(String),
    participant       Nullable(String),
    stat_category     LowCardinality(Nullable(String)),
    sportsbooks       Array(LowCardinality(String)),
    selections        Array(LowCardinality(String)),
    lines             Array(Nullable(Float64)),
    odds_american     Array(Int32),
    is_live           Bool,
    start_time        DateTime64(3, 'UTC'),
    detected_at       DateTime64(3, 'UTC'),
    last_seen_at      DateTime64(3, 'UTC'),
    expired_at        Nullable(DateTime64(3, 'UTC')),
    expire_reason     LowCardinality(Nullable(String)),
    value             Float64,
    peak_value        Float64,
    oldest_odds_time  DateTime64(3, 'UTC'),
    possibly_stale    Bool,
    record            String,
    version           UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(detected_at)
ORDER BY (kind, event_id, id, detected_at);
