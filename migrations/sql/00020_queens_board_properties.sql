-- +goose Up
-- The queens properties read off the queens' squares, which no symmetry
-- changes: like the symmetry types they are not stored (bit NULL), but
-- worked out from each class's canonical form as queries run; no orbit
-- size implies them (orbits NULL).
INSERT INTO properties (name, kind, bit, orbits, definition) VALUES
    ('toroidal', 'queens', NULL, NULL, 'no two queens share a broken diagonal (wrapping around the edges): the (r-c) mod N and (r+c) mod N are all distinct, so the solution holds on a torus'),
    ('superqueen', 'queens', NULL, NULL, 'no two queens a knight''s move apart either: the queens are superqueens (amazons), which move as a queen and as a knight');

-- +goose Down
DELETE FROM properties WHERE name IN ('toroidal', 'superqueen');
