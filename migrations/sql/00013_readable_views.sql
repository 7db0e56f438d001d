-- +goose Up
-- The views SQL users read hold no bytes, so that SELECT * prints one line
-- a row in any client (see puzzle_tables.sql): solutions_<p> shows the
-- solutions as text, solutions_<p>_raw with their cells as bytes (the
-- columns solutions_<p> had before), classes_<p>_readable the classes with
-- their canonical form as text. solcat makes these views for each puzzle
-- stored solution by solution when it opens a catalog to write; this
-- version marks the catalog so that an older solcat, which would take the
-- new views for another puzzle's tables, refuses it instead.
CREATE TABLE solcat_views (
    view       TEXT PRIMARY KEY, -- the name pattern, <p> the puzzle's name with ':' as '_'
    definition TEXT NOT NULL
);
INSERT INTO solcat_views (view, definition) VALUES
    ('solutions_<p>', 'one row per solution: id, solution (text), class_id, symmetry, symmetry_name, class_sym, block, slot'),
    ('solutions_<p>_raw', 'one row per solution: id, cells (bytes), class_id, symmetry, class_sym, block, slot, solution, symmetry_name'),
    ('classes_<p>_readable', 'one row per class: id, form (text), orbit, properties (text), props');

-- +goose Down
DROP TABLE solcat_views;
