-- +goose Up
-- Answers worked out after a build, kept so that the same question is
-- answered at once the next time: the counts of a filter on a puzzle
-- recorded by its counts only, counted again by the fast counter under the
-- filter (a constrained count). The question is the filter as the counter
-- takes it (each row's allowed columns), so every spelling of one filter
-- is one row.
CREATE TABLE answers (
    puzzle      TEXT NOT NULL,
    question    BLOB NOT NULL,
    filter      TEXT NOT NULL,    -- the filter as first asked, for people
    solutions   INTEGER NOT NULL,
    method      TEXT NOT NULL,    -- how it was counted
    seconds     REAL NOT NULL,    -- how long the count took
    workers     INTEGER NOT NULL,
    recorded_at TEXT NOT NULL,    -- UTC, RFC 3339
    PRIMARY KEY (puzzle, question)
);

-- +goose Down
DROP TABLE answers;
