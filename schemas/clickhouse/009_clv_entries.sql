-- The +EV opportunities the closing processor will grade (or has graded) against the close: the
-- version seen at detection, before the event started, one row per occurrence. The closing stage
-- restores them at start and at every assignment, so an opportunity that expired before kickoff
-- (its versions are gone from the compacted `opportunities` changelog) is still graded and
-- settled after a restart. record: the opportunity as JSON, as on the `opportunities` topic.
CREATE TABLE IF NOT EXISTS clv_entries
(
    opportunity_id    String,
    event_id          String,
    league            LowCardinality(String),
    event_start_time  DateTime64(3, 'UTC'),
    detected_at       DateTime64(3, 'UTC'),
    record            String
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(event_start_time)
ORDER BY (event_id, opportunity_id, detected_at);
