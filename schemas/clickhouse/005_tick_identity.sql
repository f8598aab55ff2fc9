-- Exactly once by idempotence: odds_ticks becomes a ReplacingMergeTree whose sorting key is the
-- tick's whole identity (every column but ingested_at and the derived odds_decimal; the columns
-- after the selection folded into one hash: a wide nullable key made every insert several times
-- slower, long enough to stall the embedded process). A batch
-- replayed after a crash or a restart, or a recording replayed from its first line, inserts rows
-- equal in every key column to rows already stored, and the engine keeps one of them. Batch
-- boundaries after a restart differ from the first run's (size and wait driven), so insert
-- deduplication tokens alone would miss most replays; the identity catches them all.
-- Replacement happens at merge time: count with FINAL (or uniqExact over the key) for exact
-- figures before the background merges ran.
-- Same columns as 001's table; existing rows move over (duplicates collapse), then the tables
-- swap names.
CREATE TABLE IF NOT EXISTS odds_ticks_dedup AS odds_ticks
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMMDD(tick_time)
ORDER BY (event_id, market, sportsbook, tick_time, selection, cityHash64(toString((line, participant, stat_category, odds_american, status, is_live, book_event_id))));

INSERT INTO odds_ticks_dedup SELECT * FROM odds_ticks;

EXCHANGE TABLES odds_ticks AND odds_ticks_dedup;

DROP TABLE odds_ticks_dedup;
