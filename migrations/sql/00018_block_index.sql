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

-- +goose Down
DELETE FROM block_layouts WHERE layout = 3;
