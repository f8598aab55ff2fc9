-- A suspended price stays on the board, locked at its last price: odds_latest keeps it as a
-- current version with is_active = 0 and the time the book suspended it. Rows written before
-- read as active. (odds_ticks needs nothing: a suspension's tick already has status 'suspended',
-- now with the frozen price in odds_american; a pulled line's tick has a null price.)
ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS is_active Bool DEFAULT true AFTER is_live;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS suspended_since Nullable(DateTime64(3, 'UTC')) AFTER is_active;
