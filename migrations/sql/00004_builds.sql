-- +goose Up
-- A stored build in progress. Its rows go to staging tables (the puzzle's
-- table names with the suffix _building) and are committed in units of a
-- fixed number of rows; this row, updated in the same transaction as each
-- unit, says how far it got, so a build killed at any moment resumes from
-- its last committed unit. The finished build replaces the puzzle's tables
-- and record in one transaction and deletes this row.
CREATE TABLE builds (
    puzzle         TEXT PRIMARY KEY,    -- 'queens:17'
    layout         TEXT NOT NULL,       -- how the work is cut into units; a build with another layout starts over
    classes_done   INTEGER NOT NULL,    -- class rows committed (IDs 1..classes_done)
    solutions_done INTEGER NOT NULL,    -- solution rows committed (IDs 1..solutions_done)
    rows_total     INTEGER NOT NULL,    -- classes + solutions expected, for the percentage
    hash_state     BLOB NOT NULL,       -- content hash state after the committed rows
    started_at     TEXT NOT NULL,       -- UTC, RFC 3339
    updated_at     TEXT NOT NULL
);

-- +goose Down
DROP TABLE builds;
