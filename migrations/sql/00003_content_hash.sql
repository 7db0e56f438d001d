-- +goose Up
-- SHA-256 over a stored puzzle's content (see catalog.ContentHash), recorded
-- at build time so that two catalogs can be compared and verify can check it.
ALTER TABLE puzzles ADD COLUMN content_hash TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE puzzles DROP COLUMN content_hash;
