-- The tables of one puzzle; {{.Classes}}, {{.Blocks}} and {{.Solutions}}
-- become, for example, classes_queens_8_raw, solution_blocks_queens_8 and
-- solutions_queens_8 (catalogs of schema 13 and below have the class table
-- under the name of the view classes_queens_8, which they lack).
--
-- Solution IDs are the 1-based lexicographic ranks of the solutions. The
-- solutions are stored in blocks of consecutive IDs, one row per block
-- (with this driver a row costs about a microsecond to write, whatever its
-- size, so one row per solution would cap a build near half a million
-- solutions a second); the view {{.Solutions}} shows one row per solution.
-- Blocks are ordered by ID, so a binary search over IDs finds a solution or
-- a prefix range without a second copy of the cells in an index. The
-- members of a class are found the same way, as the images of its
-- canonical form, so the class needs no index either.
{{define "tables"}}
CREATE TABLE {{.Classes}} (
    id        INTEGER PRIMARY KEY,  -- class ID: rank of the canonical form
    canonical BLOB NOT NULL,        -- smallest of the 8 images (Frénicle form for magic squares)
    orbit     INTEGER NOT NULL,     -- members: 1, 2, 4 or 8
    props     INTEGER NOT NULL      -- class properties, a bit set (see canon.Property and the properties table)
);
-- A block holds solutions first_id, first_id+1, ...: up to a page's worth
-- (catalog's blockTable.perBlock), starting at IDs 1 more than a multiple
-- of that, except where a shard of a split build begins or a build's
-- saved unit ends. Its cells lie column by column, so that a scan testing
-- a few cells reads a few runs of bytes. What a scan needs to decide
-- whether to read a block, its synopsis, and the checksums of its bytes
-- lie apart, in {{.Index}}, so that a scan reads the pages of only the
-- blocks that may match. (Catalogs of schema 17 and below have a synopsis
-- column in the block and decimal class entries, and those of schema 11
-- and below each solution's cells in turn.)
CREATE TABLE {{.Blocks}} (
    first_id   INTEGER PRIMARY KEY, -- ID of the block's first solution
    cells      BLOB NOT NULL,       -- column by column: cell 0 of each of its n solutions, then cell 1 of each, ...: cell i of solution first_id + k is byte i·n + k
    class_syms TEXT NOT NULL        -- each solution's class_id * 8 + symmetry in turn, in base 64 with the digits '0' (48) to 'o' (111), most significant first, one width per puzzle
);
-- The checksum of each class row, a row per run of up to 1,000 classes (a
-- run never spans two saved units of a build).
CREATE TABLE {{.Checks}} (
    first_id INTEGER PRIMARY KEY,   -- the first class of the run
    checks   BLOB NOT NULL,         -- per class, 4 bytes little-endian: the low 32 bits of XXH3 of its canonical form, its orbit (1 byte) and its props (4 bytes, little-endian), mixed with its ID
    checksum INTEGER NOT NULL       -- of first_id and checks
);
-- One row per group of consecutive blocks (up to a page's worth; a group
-- never spans two saved units of a build).
CREATE TABLE {{.Index}} (
    first_id INTEGER PRIMARY KEY,   -- ID of the first solution of the group's first block
    entries  BLOB NOT NULL,         -- per block, in ID order: its solutions (2 bytes, little-endian); its synopsis (bit i·V + v set when some solution holds value v at cell i, V values a cell can hold: queens N, magic squares N²+1; bit b is bit b%8 of byte b/8); the checksum of each cell's run and of its class entries (4 bytes each, little-endian): the low 32 bits of XXH3-64 of the run, XORed with a mix of the block's first_id and the column's number (the class entries numbered after the cells)
    checksum INTEGER NOT NULL       -- the low 32 bits of XXH3-64 of entries, XORed with a mix of first_id
);
{{end}}

-- One row per solution, read from the blocks, with its cells as bytes:
-- {{.Solutions}} is solutions_queens_8_raw (catalogs of schema 12 and
-- below have it under the name of the readable view below, which they
-- lack). Solution k of a block is its (k+1)-th.
{{define "solutions view"}}
CREATE VIEW {{.Solutions}} AS
SELECT b.first_id + k.slot AS id,                                   -- solution ID: lexicographic rank
       {{.CellsText}} AS cells, -- magic: n² values row by row; queens: 0-based column per row
       {{.ClassSym}} >> 3 AS class_id, -- the class's id in {{.Classes}}
       {{.ClassSym}} & 7 AS symmetry,  -- 0..7: carries the canonical form onto this solution
       {{.ClassSym}} AS class_sym,     -- class_id * 8 + symmetry
       b.first_id AS block, k.slot AS slot,                          -- where it is stored: ORDER BY block, slot is ID order without a sort
       {{.SolutionText}} AS solution, -- as people read it: queens the 1-based column of each row's queen, magic squares the values row by row
       CASE {{.ClassSym}} & 7 WHEN 0 THEN 'identity' WHEN 1 THEN 'mirror-lr' WHEN 2 THEN 'mirror-ud'
           WHEN 3 THEN 'rot180' WHEN 4 THEN 'transpose' WHEN 5 THEN 'rot90' WHEN 6 THEN 'rot270' ELSE 'anti-transpose' END AS symmetry_name -- as in the symmetries table
FROM {{.Blocks}} b JOIN block_slots k ON k.slot < length(b.cells) / {{.CellBytes}};
{{end}}

-- The views SQL users read: every column text or a number, so that
-- SELECT * prints one line a row in any client (the cells and canonical
-- bytes hold newline and other control bytes). {{.Solutions}} is
-- solutions_queens_8 over {{.Raw}}, {{.ClassesView}} classes_queens_8 over
-- the table {{.Classes}} (in schema 13, classes_queens_8_readable over
-- classes_queens_8).
{{define "readable views"}}
CREATE VIEW {{.Solutions}} AS
SELECT id, solution, class_id, symmetry, symmetry_name, class_sym, block, slot FROM {{.Raw}};
CREATE VIEW {{.ClassesView}} AS
SELECT id, form, orbit, properties, props FROM {{.Classes}};
{{end}}

-- Columns of a class table computed from the row, for SQL users: form is
-- the canonical form as people read it, properties the property names,
-- comma-separated. They are virtual: stored nowhere, computed when read.
-- A build adds them when it puts its class table in place, not before:
-- SQLite computes a table's generated columns on every insert, which
-- would take a fifth of a queens build's time.
{{define "readable classes"}}form TEXT GENERATED ALWAYS AS ({{.FormText}}) VIRTUAL,
    properties TEXT GENERATED ALWAYS AS ({{.PropsText}}) VIRTUAL{{end}}

-- A puzzle stored as its classes only (order-5 magic squares, queens:18
-- and queens:19): no solution rows. {{.Classes}} is classes_magic_5_raw
-- (catalogs of schema 13 and below have it under the name of the view
-- below, which they lack). A canonical form is packed 5 bits a cell
-- (magic: value - 1) or a row (queens: the 0-based column), most significant
-- first, which keeps lexicographic order, and a row holds a block of
-- consecutive classes (catalog.packedForm): rows cost time, not bytes, with
-- this driver. Properties are rare at these sizes, so they sit in a table of
-- their own holding only the classes that have some; so do the queens
-- classes with fewer than 8 members, with the ID of their first member:
-- members are numbered class by class.
{{define "classes only"}}
CREATE TABLE {{.Classes}} (
    block     INTEGER PRIMARY KEY,  -- k holds classes {{.PerBlock}}(k-1)+1 to {{.PerBlock}}k
    forms     BLOB NOT NULL         -- their packed canonical forms in class ID order, {{.FormBytes}} bytes each
);
-- One row per group of 8 consecutive blocks: what a scan needs to decide
-- whether to read them, and the checksums of what it reads.
CREATE TABLE {{.Index}} (
    grp       INTEGER PRIMARY KEY,  -- g holds blocks 8(g-1)+1 to 8g
    synopsis  BLOB NOT NULL,        -- bit i·V + v (V values a cell can hold: queens N, magic squares N²+1) set when some form of the group holds value v at cell i (a magic square's value, a queen's 0-based column); bit b is bit b%8 of byte b/8
    checks    BLOB NOT NULL,        -- the checksum of each of its blocks (4 bytes each, little-endian): the low 32 bits of XXH3-64 of its forms, XORed with a mix of the block's number
    checksum  INTEGER NOT NULL      -- the low 32 bits of XXH3-64 of synopsis and checks, XORed with a mix of grp
);
CREATE TABLE {{.Props}} (
    id        INTEGER PRIMARY KEY,  -- class ID, for classes with properties only
    props     INTEGER NOT NULL      -- a bit set, as in the classes table of other puzzles
);
{{- if .Orbits}}
CREATE TABLE {{.Orbits}} (
    id           INTEGER PRIMARY KEY, -- class ID, for classes with fewer than 8 members only
    orbit        INTEGER NOT NULL,    -- 1, 2 or 4 members
    first_member INTEGER NOT NULL     -- the solution ID of its first member
);
{{- end}}
{{end}}

-- The classes of a puzzle stored as its classes only, as SQL users read
-- them (no bytes, as in the other views SQL users read): {{.ClassesView}}
-- is classes_magic_5 over the packed forms of {{.Classes}}. Class k of a
-- block is its (k+1)-th form; a class has 8 members and no properties
-- but where {{.Orbits}} and {{.Props}} say otherwise.
{{define "packed classes view"}}
CREATE VIEW {{.ClassesView}} AS
SELECT id, form, orbit, {{.PropsText}} AS properties, props FROM (
    SELECT (b.block - 1) * {{.PerBlock}} + k.slot + 1 AS id, -- class ID: rank of the canonical form
           {{.FormText}} AS form, -- the canonical form as people read it
           {{if .Orbits}}coalesce((SELECT o.orbit FROM {{.Orbits}} o WHERE o.id = (b.block - 1) * {{.PerBlock}} + k.slot + 1), 8){{else}}8{{end}} AS orbit,
           coalesce((SELECT p.props FROM {{.Props}} p WHERE p.id = (b.block - 1) * {{.PerBlock}} + k.slot + 1), 0) AS props
    FROM {{.Classes}} b JOIN block_slots k ON k.slot < length(b.forms) / {{.FormBytes}});
{{end}}
