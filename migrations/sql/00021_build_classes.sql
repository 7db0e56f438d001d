-- +goose Up
-- The classes an unfinished stored build has committed, packed a unit at a
-- time (forms back to back, orbit sizes a byte each, from class first_id
-- on), beside their rows in the build's class table: a resumed build reads
-- them back in a few blobs instead of row by row, so that even one stopped
-- every few seconds gets on. Removed with the builds row.
CREATE TABLE build_classes (
    puzzle   TEXT NOT NULL,
    first_id INTEGER NOT NULL,
    forms    BLOB NOT NULL,
    orbits   BLOB NOT NULL,
    PRIMARY KEY (puzzle, first_id)
);

-- +goose Down
DROP TABLE build_classes;
