-- +goose Up
-- A puzzle may now be stored as its classes only (storage 'classes'): the
-- canonical forms, packed, and no solution rows; queries expand each class
-- into its members. Order 5 is stored so: 275,305,224 classes, and its
-- 2,202,441,792 squares would need some 80 GB. SQLite cannot change a CHECK
-- constraint in place, so the table is copied.
CREATE TABLE puzzles_new (
    name            TEXT PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('magic', 'queens')),
    n               INTEGER NOT NULL CHECK (n >= 1),
    storage         TEXT NOT NULL CHECK (storage IN ('solutions', 'classes', 'counts')),
    solutions       INTEGER NOT NULL,
    classes         INTEGER NOT NULL,
    orbit1          INTEGER NOT NULL,
    orbit2          INTEGER NOT NULL,
    orbit4          INTEGER NOT NULL,
    orbit8          INTEGER NOT NULL,
    known_solutions INTEGER,
    known_classes   INTEGER,
    verified        INTEGER NOT NULL,
    search_nodes    INTEGER NOT NULL,
    workers         INTEGER NOT NULL,
    build_seconds   REAL NOT NULL,
    built_at        TEXT NOT NULL,
    solver_version  TEXT NOT NULL,
    content_hash    TEXT NOT NULL DEFAULT '',
    UNIQUE (kind, n)
);
INSERT INTO puzzles_new SELECT name, kind, n, storage, solutions, classes, orbit1, orbit2, orbit4, orbit8,
    known_solutions, known_classes, verified, search_nodes, workers, build_seconds, built_at, solver_version, content_hash FROM puzzles;
DROP TABLE puzzles;
ALTER TABLE puzzles_new RENAME TO puzzles;

-- +goose Down
DELETE FROM puzzles WHERE storage = 'classes';
CREATE TABLE puzzles_old (
    name            TEXT PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('magic', 'queens')),
    n               INTEGER NOT NULL CHECK (n >= 1),
    storage         TEXT NOT NULL CHECK (storage IN ('solutions', 'counts')),
    solutions       INTEGER NOT NULL,
    classes         INTEGER NOT NULL,
    orbit1          INTEGER NOT NULL,
    orbit2          INTEGER NOT NULL,
    orbit4          INTEGER NOT NULL,
    orbit8          INTEGER NOT NULL,
    known_solutions INTEGER,
    known_classes   INTEGER,
    verified        INTEGER NOT NULL,
    search_nodes    INTEGER NOT NULL,
    workers         INTEGER NOT NULL,
    build_seconds   REAL NOT NULL,
    built_at        TEXT NOT NULL,
    solver_version  TEXT NOT NULL,
    content_hash    TEXT NOT NULL DEFAULT '',
    UNIQUE (kind, n)
);
INSERT INTO puzzles_old SELECT * FROM puzzles;
DROP TABLE puzzles;
ALTER TABLE puzzles_old RENAME TO puzzles;
