-- Accounts and their API keys: the durable copy of the compacted `accounts` topic. Every API
-- replica loads these at start and then follows the topic. Read with FINAL (latest version).
-- Only a SHA-256 of each secret is kept (key_hash), never the secret.
CREATE TABLE IF NOT EXISTS accounts
(
    id          String,
    name        String,
    created_at  DateTime64(3, 'UTC'),
    version     UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY id;

CREATE TABLE IF NOT EXISTS api_keys
(
    id                   String,
    account_id           String,
    key_hash             String,
    preview              String,
    tier                 LowCardinality(String),
    name                 Nullable(String),
    created_at           DateTime64(3, 'UTC'),
    updated_at           DateTime64(3, 'UTC'),
    active               Bool,
    expires_at           Nullable(DateTime64(3, 'UTC')),
    revoked_at           Nullable(DateTime64(3, 'UTC')),
    requests_per_minute  Nullable(UInt32),
    replaced_by          Nullable(String),
    version              UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY id;

-- Requests per key and endpoint in minute buckets, summed on merge. Replicas flush their own
-- counts every few seconds, so one (minute, key, endpoint) may have several rows until merged:
-- always read with sum(). endpoint is the route pattern (`GET /api/v1/odds`), never the URL.
CREATE TABLE IF NOT EXISTS api_usage
(
    minute      DateTime('UTC'),
    account_id  String,
    key_id      String,
    endpoint    LowCardinality(String),
    requests    UInt64,
    errors      UInt64
)
ENGINE = SummingMergeTree((requests, errors))
PARTITION BY toYYYYMM(minute)
ORDER BY (account_id, key_id, endpoint, minute);
