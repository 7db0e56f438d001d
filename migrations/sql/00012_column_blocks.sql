-- +goose Up
-- Solution blocks hold their cells column by column, with a synopsis of the
-- values each cell holds (see puzzle_tables.sql): a scan reads only the
-- cells a filter names and skips blocks that cannot match. The tables of
-- puzzles built before keep their row-major blocks, which solcat still
-- reads; this version marks the catalog so that an older solcat, which
-- would read column blocks as row-major, refuses it instead.
CREATE TABLE block_layouts (
    layout      INTEGER PRIMARY KEY, -- 1: row-major blocks, 2: column blocks with a synopsis
    description TEXT NOT NULL
);
INSERT INTO block_layouts (layout, description) VALUES
    (1, 'row-major: each solution''s cells in turn; the blocks table has no synopsis column'),
    (2, 'column blocks: each cell''s values for all of the block''s solutions together, with a synopsis column');

-- +goose Down
DROP TABLE block_layouts;
