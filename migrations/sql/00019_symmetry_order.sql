-- +goose Up
-- The symmetries in the order the README documents, the order that
-- breaks ties: where several symmetries carry a class's canonical form
-- onto a solution (orbits under 8), its symmetry is the first of them.
-- tie_break numbers them 1 to 8 in that order and is the table's key, so
-- SELECT * lists them so; id stays what solutions_*.symmetry stores (a
-- 3-bit code: swap, flip the row, flip the column), so joins on it read as
-- before. The rows are solcat's definitions, written again whole.
CREATE TABLE symmetries_in_order (
    id        INTEGER NOT NULL UNIQUE, -- as stored in solutions_*.symmetry
    name      TEXT NOT NULL UNIQUE,
    maps      TEXT NOT NULL,           -- where it takes the cell (r, c), 0-based, of an n×n grid
    tie_break INTEGER PRIMARY KEY      -- 1 to 8: the order that chooses a solution's symmetry among those that fit
);
INSERT INTO symmetries_in_order (tie_break, id, name, maps) VALUES
    (1, 0, 'identity', '(r, c)'),
    (2, 5, 'rot90', '(c, n-1-r)'),
    (3, 3, 'rot180', '(n-1-r, n-1-c)'),
    (4, 6, 'rot270', '(n-1-c, r)'),
    (5, 1, 'mirror-lr', '(r, n-1-c)'),
    (6, 2, 'mirror-ud', '(n-1-r, c)'),
    (7, 4, 'transpose', '(c, r)'),
    (8, 7, 'anti-transpose', '(n-1-c, n-1-r)');
DROP TABLE symmetries;
ALTER TABLE symmetries_in_order RENAME TO symmetries;

-- +goose Down
CREATE TABLE symmetries_by_id (
    id   INTEGER PRIMARY KEY, -- as stored in solutions_*.symmetry
    name TEXT NOT NULL UNIQUE,
    maps TEXT NOT NULL        -- where it takes the cell (r, c), 0-based, of an n×n grid
);
INSERT INTO symmetries_by_id (id, name, maps) SELECT id, name, maps FROM symmetries;
DROP TABLE symmetries;
ALTER TABLE symmetries_by_id RENAME TO symmetries;
