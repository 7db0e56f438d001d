-- +goose Up
-- The work a finished shard took, so that a merge can record the whole
-- build's search nodes and build time as the sums over its shards.
ALTER TABLE shards ADD COLUMN nodes INTEGER NOT NULL DEFAULT 0;   -- search nodes of the shard's build
ALTER TABLE shards ADD COLUMN seconds REAL NOT NULL DEFAULT 0;    -- wall time of the run that finished it

-- +goose Down
ALTER TABLE shards DROP COLUMN seconds;
ALTER TABLE shards DROP COLUMN nodes;
