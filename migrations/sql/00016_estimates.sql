-- +goose Up
-- Estimates: counts past exact reach, by Monte Carlo probes (solcat
-- estimate). Never exact, so kept apart from answers, with what it takes
-- to judge and repeat them: the standard error, the 95% interval, the
-- effort and the seed. A seed's probes are one stream, so a longer run
-- with the same seed replaces a shorter one.
CREATE TABLE estimates (
    puzzle         TEXT NOT NULL,
    question       BLOB NOT NULL,   -- the filter as the estimator takes it: one key for every spelling and image
    filter         TEXT NOT NULL,   -- as first asked, for people
    solutions      REAL NOT NULL,
    solutions_se   REAL NOT NULL,   -- standard error
    solutions_low  REAL NOT NULL,   -- 95% interval
    solutions_high REAL NOT NULL,
    classes        REAL,            -- NULL when the filter leaves classes unestimated
    classes_se     REAL,
    classes_low    REAL,
    classes_high   REAL,
    method         TEXT NOT NULL,
    seed           INTEGER NOT NULL,
    probes         INTEGER NOT NULL,
    seconds        REAL NOT NULL,
    workers        INTEGER NOT NULL,
    recorded_at    TEXT NOT NULL,   -- UTC, RFC 3339
    PRIMARY KEY (puzzle, question, seed)
);

-- +goose Down
DROP TABLE estimates;
