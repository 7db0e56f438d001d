-- +goose Up
-- One row per puzzle the catalog holds. A puzzle's solutions and classes
-- live in their own pair of tables (see migrations/puzzle_tables.sql), so
-- rows carry no puzzle column and a rebuild drops two tables instead of
-- deleting millions of rows.
CREATE TABLE puzzles (
    name            TEXT PRIMARY KEY,           -- 'magic:4', 'queens:8'
    kind            TEXT NOT NULL CHECK (kind IN ('magic', 'queens')),
    n               INTEGER NOT NULL CHECK (n >= 1),
    storage         TEXT NOT NULL CHECK (storage IN ('solutions', 'counts')),
    solutions       INTEGER NOT NULL,           -- all solutions
    classes         INTEGER NOT NULL,           -- classes under the 8 symmetries
    orbit1          INTEGER NOT NULL,           -- classes with 1 member
    orbit2          INTEGER NOT NULL,           -- classes with 2 members
    orbit4          INTEGER NOT NULL,           -- classes with 4 members
    orbit8          INTEGER NOT NULL,           -- classes with 8 members
    known_solutions INTEGER,                    -- published count, NULL if none
    known_classes   INTEGER,
    verified        INTEGER NOT NULL,           -- 1 if every count equals the published one
    search_nodes    INTEGER NOT NULL,
    workers         INTEGER NOT NULL,
    build_seconds   REAL NOT NULL,
    built_at        TEXT NOT NULL,              -- UTC, RFC 3339
    solver_version  TEXT NOT NULL,
    UNIQUE (kind, n)
);

-- +goose Down
DROP TABLE puzzles;
