-- Exchange books quote both sides of an outcome and the money behind them. On their ticks and
-- rows: the best back and lay prices (decimal, before commission), the size waiting at each
-- (max_bet at the back price, max_lay at the lay price, market currency), the volume traded on the
-- outcome and the commission percent; odds_american / odds_decimal are the back price net of that
-- commission. Null on every sportsbook's price and on rows written before these columns.
ALTER TABLE odds_ticks ADD COLUMN IF NOT EXISTS back Nullable(Float64) AFTER observed_at;

ALTER TABLE odds_ticks ADD COLUMN IF NOT EXISTS lay Nullable(Float64) AFTER back;

ALTER TABLE odds_ticks ADD COLUMN IF NOT EXISTS max_bet Nullable(Float64) AFTER lay;

ALTER TABLE odds_ticks ADD COLUMN IF NOT EXISTS max_lay Nullable(Float64) AFTER max_bet;

ALTER TABLE odds_ticks ADD COLUMN IF NOT EXISTS volume Nullable(Float64) AFTER max_lay;

ALTER TABLE odds_ticks ADD COLUMN IF NOT EXISTS commission Nullable(Float64) AFTER volume;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS back Nullable(Float64) AFTER observed_at;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS lay Nullable(Float64) AFTER back;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS max_bet Nullable(Float64) AFTER lay;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS max_lay Nullable(Float64) AFTER max_bet;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS volume Nullable(Float64) AFTER max_lay;

ALTER TABLE odds_latest ADD COLUMN IF NOT EXISTS commission Nullable(Float64) AFTER volume;
