-- +goose Up
-- Solution blocks keep what a scan needs to decide whether to read them
-- (their synopses) and the checksums of their bytes in a block index of
-- their own, and their class entries in base 64 (see puzzle_tables.sql);
-- a puzzle stored as its classes gets a class index with a synopsis per
-- group of blocks and a checksum per block. Puzzles built before keep
-- their tables, which solcat still reads; this version marks the catalog
-- so that an older solcat, which would read the new blocks as damaged,
-- refuses it instead.
INSERT OR REPLACE INTO block_layouts (layout, description) VALUES
    (3, 'column blocks with class entries in base 64, their synopses and checksums in block_index_<puzzle>');

-- Records, recorded counts, kept answers and estimates carry a seal: a
-- digest of their fields (catalog/seal.go). Rows written before are
-- sealed as the catalog is first opened to write.
ALTER TABLE puzzles ADD COLUMN seal TEXT NOT NULL DEFAULT '';
ALTER TABLE count_breakdown ADD COLUMN seal TEXT NOT NULL DEFAULT '';
ALTER TABLE answers ADD COLUMN seal TEXT NOT NULL DEFAULT '';
ALTER TABLE estimates ADD COLUMN seal TEXT NOT NULL DEFAULT '';

-- +goose Down
DELETE FROM block_layouts WHERE layout = 3;
ALTER TABLE puzzles DROP COLUMN seal;
ALTER TABLE count_breakdown DROP COLUMN seal;
ALTER TABLE answers DROP COLUMN seal;
ALTER TABLE estimates DROP COLUMN seal;
