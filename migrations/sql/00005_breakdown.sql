-- +goose Up
-- Counts of a puzzle stored as counts only, broken down by a statistic:
-- for magic:5, by the centre value. count and stats answer from it.
CREATE TABLE count_breakdown (
    puzzle    TEXT NOT NULL,     -- 'magic:5'
    stat      TEXT NOT NULL,     -- 'cell:3,3' (the centre of an order-5 square)
    value     INTEGER NOT NULL,  -- the statistic's value, e.g. the centre
    solutions INTEGER NOT NULL,
    classes   INTEGER NOT NULL,
    PRIMARY KEY (puzzle, stat, value)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE count_breakdown;
