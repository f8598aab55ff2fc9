-- An account's own exchange commission rate, percent (issue 32): the default rate its answers
-- price exchange legs at when a request names none. Null: the exchange's own base rate.
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS exchange_commission Nullable(Float64) AFTER created_at;
