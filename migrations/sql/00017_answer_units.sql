-- +goose Up
-- The finished units of a long constrained count, saved as it runs, so
-- that a count stopped by Ctrl-C resumes where it stopped; removed once
-- the answer is kept. units is how many the count has in all: a count
-- split differently starts over.
CREATE TABLE answer_units (
    puzzle    TEXT NOT NULL,
    question  BLOB NOT NULL,
    units     INTEGER NOT NULL,
    unit      INTEGER NOT NULL,
    solutions INTEGER NOT NULL,
    PRIMARY KEY (puzzle, question, unit)
);

-- +goose Down
DROP TABLE answer_units;
