-- The tables of one puzzle; {{.Solutions}} and {{.Classes}} become, for
-- example, solutions_queens_8 and classes_queens_8.
--
-- Solution IDs are the 1-based lexicographic ranks of the solutions and the
-- rowid is the ID, so rows are stored in lexicographic order of cells: a
-- binary search over IDs finds a solution or a prefix range without a
-- second copy of the cells in an index. The members of a class are found
-- the same way, as the images of its canonical form, so class_id needs no
-- index either.
{{define "tables"}}
CREATE TABLE {{.Classes}} (
    id        INTEGER PRIMARY KEY,  -- class ID: rank of the canonical form
    canonical BLOB NOT NULL,        -- smallest of the 8 images (Frénicle form for magic squares)
    orbit     INTEGER NOT NULL,     -- members: 1, 2, 4 or 8
    props     INTEGER NOT NULL      -- class properties, a bit set (see canon.Property)
);
-- class_id and symmetry are packed into one stored integer and read back
-- through virtual generated columns, which cost no space: one integer binds
-- and stores faster than two, and bulk insert speed is what limits a build.
CREATE TABLE {{.Solutions}} (
    id        INTEGER PRIMARY KEY,  -- solution ID: lexicographic rank
    cells     BLOB NOT NULL,        -- magic: n² values row by row; queens: 0-based column per row
    class_sym INTEGER NOT NULL,     -- class_id * 8 + symmetry
    class_id  INTEGER GENERATED ALWAYS AS (class_sym >> 3) VIRTUAL, -- the class's id in {{.Classes}}
    symmetry  INTEGER GENERATED ALWAYS AS (class_sym & 7) VIRTUAL   -- 0..7: carries the canonical form onto this solution
);
{{end}}

-- A puzzle stored as its classes only (order-5 magic squares): no solution
-- rows, and every class has 8 members. A canonical form is packed 5 bits a
-- cell (value - 1, most significant first) in 16 bytes, which keeps
-- lexicographic order, and a row holds a block of 127 consecutive classes
-- (catalog.ClassesPerBlock): rows cost time, not bytes, with this driver.
-- Properties are rare at this size, so they sit in a table of their own
-- holding only the classes that have some.
{{define "classes only"}}
CREATE TABLE {{.Classes}} (
    block     INTEGER PRIMARY KEY,  -- k holds classes 127(k-1)+1 to 127k
    forms     BLOB NOT NULL         -- their Frénicle forms in class ID order, 16 bytes each
);
CREATE TABLE {{.Props}} (
    id        INTEGER PRIMARY KEY,  -- class ID, for classes with properties only
    props     INTEGER NOT NULL      -- a bit set, as in the classes table of other puzzles
);
{{end}}
