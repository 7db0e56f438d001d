-- +goose Up
-- The join counter's work units count solutions without sorting them into
-- classes (Burnside's lemma does that once every unit is done): a unit's
-- count goes here, its orbit columns stay 0.
ALTER TABLE count_units ADD COLUMN joined INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE count_units DROP COLUMN joined;
