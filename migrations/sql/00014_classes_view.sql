-- +goose Up
-- classes_<p>, the name SQL users query, becomes a view that holds no bytes
-- (id, form, orbit, properties, props), so that SELECT * prints one line a
-- row in any client; the table under it, with the canonical forms as bytes
-- (one a row, or packed in blocks for a puzzle stored as its classes only),
-- is renamed classes_<p>_raw, and the view classes_<p>_readable of schema
-- 13 goes. solcat renames the tables and makes the views when it opens a
-- catalog to write (a rename: no row is rewritten); this version marks the
-- catalog so that an older solcat, which reads the classes from
-- classes_<p>, refuses it instead.
DELETE FROM solcat_views WHERE view = 'classes_<p>_readable';
INSERT INTO solcat_views (view, definition) VALUES
    ('classes_<p>', 'one row per class: id, form (text), orbit, properties (text), props'),
    ('classes_<p>_raw', 'the table of classes: id, canonical (bytes), orbit, props, form (text), properties (text); of a puzzle stored as its classes only, block, forms (packed bytes)');

-- +goose Down
DELETE FROM solcat_views WHERE view IN ('classes_<p>', 'classes_<p>_raw');
INSERT INTO solcat_views (view, definition) VALUES
    ('classes_<p>_readable', 'one row per class: id, form (text), orbit, properties (text), props');
