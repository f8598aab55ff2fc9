-- Three times per price: tick_time / odds_time is when the book last set or confirmed it;
-- odds_changed_at is when the book last moved it (a confirmation keeps it) and observed_at when
-- our feed saw it. Ticks from feeds that do not know a time leave it null; rows written before
-- these columns read as null too (the latest board fills them in from the changelog).
ALTER TABLE odds_ticks ADD COLUMN IF NOT EXISTS odds_changed_at Nullable(DateTime64(3, 'UTC')) AFTER tick_time;

ALTER TABLE odds_ticks ADD COLUMN IF NOT EXISTS observed_at Nullable(DateTime64(3, 'UTC')) AFTER odds_changed_at;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS odds_changed_at Nullable(DateTime64(3, 'UTC')) AFTER odds_time;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS observed_at Nullable(DateTime64(3, 'UTC')) AFTER odds_changed_at;
