-- +goose Up
-- Finished work units of count-only builds. A long count commits each unit
-- as it finishes, so an interrupted count resumes where it stopped; prefix
-- identifies the unit, so a changed unit layout is noticed, not mixed in.
CREATE TABLE count_units (
    puzzle TEXT NOT NULL,       -- 'queens:20'
    unit   INTEGER NOT NULL,    -- index in the puzzle's list of units
    prefix BLOB NOT NULL,       -- the unit's fixed first rows
    orbit1 INTEGER NOT NULL,
    orbit2 INTEGER NOT NULL,
    orbit4 INTEGER NOT NULL,
    orbit8 INTEGER NOT NULL,
    nodes  INTEGER NOT NULL,
    PRIMARY KEY (puzzle, unit)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE count_units;
