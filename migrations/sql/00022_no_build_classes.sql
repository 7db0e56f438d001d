-- +goose Up
-- A resumed stored build reads the classes it saved from its class table
-- (from the file's pages), so it no longer keeps a packed copy of them:
-- that copy, deleted when the build ended, left its pages free inside the
-- catalog file (216 MB of queens:17's 2.8 GB).
DROP TABLE build_classes;

-- +goose Down
CREATE TABLE build_classes (
    puzzle   TEXT NOT NULL,
    first_id INTEGER NOT NULL,
    forms    BLOB NOT NULL,
    orbits   BLOB NOT NULL,
    PRIMARY KEY (puzzle, first_id)
);
