-- Alert rules: the durable copy of the rule records of the compacted `accounts` topic (keyed
-- `alert:<id>`). Every API replica loads them at start with the keys, then follows the topic.
-- Read with FINAL (latest version). `secret` is the rule's HMAC key sealed under ALERT_SECRET_KEY
-- (AES-256-GCM): the delivering replica opens it to sign; the API shows it once, at creation.
CREATE TABLE IF NOT EXISTS alert_rules
(
    id            String,
    account_id    String,
    key_id        String,
    tier          LowCardinality(String),
    name          Nullable(String),
    kind          LowCardinality(String),
    filters_json  String,
    webhook_url   String,
    secret        String,
    created_at    DateTime64(3, 'UTC'),
    updated_at    DateTime64(3, 'UTC'),
    active        Bool,
    deleted_at    Nullable(DateTime64(3, 'UTC')),
    version       UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY id;

-- The delivery log: one row per alert once its delivery ended (delivered, or dead-lettered after
-- the retry budget), written by the one replica that delivers. `GET /alerts/{id}/deliveries`
-- reads it from any replica. A row written twice (a retried insert) is the same alert_id.
CREATE TABLE IF NOT EXISTS alert_deliveries
(
    rule_id      String,
    account_id   String,
    alert_id     String,
    sequence     UInt64,
    outcome      LowCardinality(String),
    attempts     UInt32,
    last_status  Nullable(UInt16),
    last_error   Nullable(String),
    raised_at    DateTime64(3, 'UTC'),
    finished_at  DateTime64(3, 'UTC'),
    body         String
)
ENGINE = ReplacingMergeTree
ORDER BY (rule_id, sequence, alert_id);
