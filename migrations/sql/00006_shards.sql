-- +goose Up
-- A catalog that holds one shard of a build made with --shard I/K: the work
-- units whose index modulo K is I-1. 'solcat merge' checks these rows (same
-- split, same solver, every shard once and finished) before combining the
-- shards' units into one catalog.
CREATE TABLE shards (
    puzzle  TEXT PRIMARY KEY,     -- 'queens:20'
    shard   INTEGER NOT NULL,     -- I, 1-based
    of      INTEGER NOT NULL,     -- K
    layout  TEXT NOT NULL,        -- solver and number of work units
    units   INTEGER NOT NULL,     -- units in this shard
    done    INTEGER NOT NULL      -- 1 once every unit of the shard is saved
);

-- +goose Down
DROP TABLE shards;
