-- +goose Up
-- Lookup tables for SQL users: the names of the symmetries stored as
-- numbers in solutions_*.symmetry, and of the class properties stored as
-- bits in classes_*.props, so that plain SQL needs no byte or bit tricks:
--   SELECT y.name, count(*) FROM solutions_queens_8 s JOIN symmetries y ON y.id = s.symmetry GROUP BY 1
CREATE TABLE symmetries (
    id   INTEGER PRIMARY KEY, -- as stored in solutions_*.symmetry
    name TEXT NOT NULL UNIQUE,
    maps TEXT NOT NULL        -- where it takes the cell (r, c), 0-based, of an n×n grid
);
INSERT INTO symmetries (id, name, maps) VALUES
    (0, 'identity', '(r, c)'),
    (1, 'mirror-lr', '(r, n-1-c)'),
    (2, 'mirror-ud', '(n-1-r, c)'),
    (3, 'rot180', '(n-1-r, n-1-c)'),
    (4, 'transpose', '(c, r)'),
    (5, 'rot90', '(c, n-1-r)'),
    (6, 'rot270', '(n-1-c, r)'),
    (7, 'anti-transpose', '(n-1-c, n-1-r)');

CREATE TABLE properties (
    name       TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,  -- magic or queens
    bit        INTEGER,        -- its bit in classes_*.props; NULL for the queens symmetry types, which the orbit gives
    orbits     TEXT,           -- queens: the orbit sizes of the classes that have it
    definition TEXT NOT NULL
);
INSERT INTO properties (name, kind, bit, orbits, definition) VALUES
    ('pandiagonal', 'magic', 1, NULL, 'every broken diagonal, both directions, sums to the magic constant'),
    ('associative', 'magic', 2, NULL, 'cells symmetric about the centre sum to N²+1'),
    ('most-perfect', 'magic', 4, NULL, 'N divisible by 4: pandiagonal, every 2×2 block (wrapping) sums to 2(N²+1), cells N/2 apart along a diagonal are complementary'),
    ('self-complementary', 'magic', 8, NULL, 'x → N²+1−x gives a member of the same class'),
    ('rot90-symmetric', 'queens', NULL, '1,2', 'fixed by the quarter turn'),
    ('rot180-only', 'queens', NULL, '4', 'fixed by the half turn but not the quarter turn'),
    ('asymmetric', 'queens', NULL, '8', 'fixed by no symmetry but the identity'),
    ('dudeney-I', 'magic', 128, NULL, 'order 4, Dudeney group I: the complementary pairs x, 17−x lie as in his diagram I (the pandiagonal squares)'),
    ('dudeney-II', 'magic', 256, NULL, 'order 4, Dudeney group II'),
    ('dudeney-III', 'magic', 512, NULL, 'order 4, Dudeney group III (the associative squares)'),
    ('dudeney-IV', 'magic', 1024, NULL, 'order 4, Dudeney group IV'),
    ('dudeney-V', 'magic', 2048, NULL, 'order 4, Dudeney group V'),
    ('dudeney-VI', 'magic', 4096, NULL, 'order 4, Dudeney group VI: every pair mirrored within its row'),
    ('dudeney-VII', 'magic', 8192, NULL, 'order 4, Dudeney group VII'),
    ('dudeney-VIII', 'magic', 16384, NULL, 'order 4, Dudeney group VIII'),
    ('dudeney-IX', 'magic', 32768, NULL, 'order 4, Dudeney group IX'),
    ('dudeney-X', 'magic', 65536, NULL, 'order 4, Dudeney group X'),
    ('dudeney-XI', 'magic', 131072, NULL, 'order 4, Dudeney group XI'),
    ('dudeney-XII', 'magic', 262144, NULL, 'order 4, Dudeney group XII');

-- +goose Down
DROP TABLE properties;
DROP TABLE symmetries;
