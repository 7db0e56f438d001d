// Package catalog is the SQLite store and the only owner of its format: it
// opens, recognises and migrates catalog files (their locks, logs and
// faults on disk are catfile's), writes a puzzle's
// rows in bulk, in resumable units and atomically, and reads back what a
// catalog holds (records, breakdowns, solution and class scans, one
// solution or class, integrity checks, read-only SQL for users). Nothing
// outside it builds a table name, writes SQL or decodes a block. It knows
// nothing of the puzzles' rules (solutions are bytes) and prints nothing.
//
// Rows map into tagged structs with sqlx (GetContext, SelectContext). The
// scans that stream millions of rows (solution blocks, class rows and
// class blocks) read each row with Scan into bytes they hand on without a
// copy, which mapping into a struct would make. Errors are told by
// SQLite's result codes and the system's error numbers (catfile), never by
// their words, but for the faults of a user's statement that share one code
// (usersql).
package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"solcat/catalog/catfile"
	"solcat/catalog/usersql"
)

// ErrNoCatalog means the catalog file does not exist yet.
var ErrNoCatalog = errors.New("no catalog")

// ErrNotCatalog means the file exists but is not a solcat catalog.
var ErrNotCatalog = errors.New("not a solcat catalog")

// applicationID marks an SQLite file as a solcat catalog ("SolC"), in the
// header field SQLite keeps for that (PRAGMA application_id). Catalogs made
// before it was set are recognised by their tables.
const applicationID = 0x536F6C43

// Catalog is an open catalog file.
type Catalog struct {
	db   *sqlx.DB
	path string // as the user named it: messages name it so
	// file is the catalog file itself, its symbolic links followed: its
	// lock file and SQLite's log are named after it, so that every name of
	// a catalog means the same catalog.
	file string

	// A writer's: its lock file, its byte locks, its checkpoints, where it
	// says that it waits, and whether it made the file.
	lock       *catfile.WriteLock
	locks      *catfile.Locks
	checkpoint *catfile.Checkpointer
	notices    io.Writer
	created    bool

	lease     *catfile.ReadLease // a reader's hold on the read byte; nil if none is taken
	immutable bool               // a reader of the file alone, under the read byte: its pages may be read in place (pages.go)
	stopWatch chan struct{}      // ends YieldToWriters' watch
	closed    bool

	// A reader's view of the file as it opened it (watchFile).
	watched        *os.File
	opened         fileState
	changedAtClose bool

	hasSeals bool // the rows carry seals (findSeals)
}

// checkPath refuses a catalog path that is empty or names a folder.
func checkPath(path string) error {
	if path == "" {
		return fmt.Errorf("%w: the catalog path is empty", ErrNotCatalog)
	}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return fmt.Errorf("%s is %w: it is a folder", path, ErrNotCatalog)
	case err == nil && !info.Mode().IsRegular():
		return fmt.Errorf("%s is %w: it is a device or a pipe, not a file", path, ErrNotCatalog)
	}
	return nil
}

// checkOwner refuses an SQLite file that holds tables and is not a solcat
// catalog, or that SQLite cannot read, without writing a byte. The caller
// holds the writer's byte, so the file does not change meanwhile. Without
// a write-ahead log beside it the file is read as immutable, so no -wal or
// -shm file is made beside a file that may not be solcat's. With one, the
// log may hold what the file lacks, so it is read as usual. (A new
// catalog's tables may still be in its log: an empty file passes.)
func checkOwner(ctx context.Context, path, file string) error {
	if info, err := os.Stat(file); err != nil || info.Size() == 0 {
		return nil // a new file, or an empty one, becomes a catalog
	}
	params := []string{"mode=ro", "immutable=1"}
	if info, err := os.Stat(file + "-wal"); err == nil && info.Size() > 0 {
		params = []string{"mode=ro", "_pragma=busy_timeout(10000)"}
	}
	dsn, err := catfile.FileURI(file, params...)
	if err != nil {
		return err
	}
	db, err := sqlx.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	return recognise(ctx, db, path)
}

// recognise checks that db is a solcat catalog: marked as one, or made
// before the mark by a solcat (its puzzles and schema version tables, the
// latter by either name), or empty. A catalog's migrations make its tables
// and then the mark: a file whose first migration was cut short holds
// the version table alone.
func recognise(ctx context.Context, db *sqlx.DB, path string) error {
	var id int64
	if err := db.GetContext(ctx, &id, "PRAGMA application_id"); err != nil {
		return catfile.OpenError(path, err)
	}
	if id == applicationID {
		return nil
	}
	var tables []string // SQLite's own (sqlite_sequence) say nothing of whose the file is
	if err := db.SelectContext(ctx, &tables, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY name"); err != nil {
		return catfile.OpenError(path, err)
	}
	versions := slices.Contains(tables, versionTable) || slices.Contains(tables, oldVersionTable)
	solcat := versions && (len(tables) == 1 || slices.Contains(tables, "puzzles"))
	if id == 0 && (len(tables) == 0 || solcat) {
		return nil
	}
	if id != 0 {
		return fmt.Errorf("%s is %w: it is the SQLite database of another program (application id %d)", path, ErrNotCatalog, id)
	}
	if len(tables) > 5 {
		tables = append(tables[:5], "...")
	}
	return fmt.Errorf("%s is %w: it is an SQLite database of another program (tables %s)", path, ErrNotCatalog, strings.Join(tables, ", "))
}

// checkHeader refuses a file that exists but is not an SQLite database,
// before the driver touches it.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read catalog %s: %w", path, err)
	}
	defer f.Close()
	header := make([]byte, 16)
	n, _ := f.Read(header)
	if n == 0 {
		return nil // an empty file becomes a new database
	}
	if n < 16 || string(header) != "SQLite format 3\x00" {
		return fmt.Errorf("%s is %w (not an SQLite database)", path, ErrNotCatalog)
	}
	return nil
}

// Path is the catalog's file.
func (c *Catalog) Path() string { return c.path }

// hasTable reports whether the database has a table of that name. A
// catalog opened read-only is not migrated, so tables added by later
// schema versions may be missing from it.
func hasTable(ctx context.Context, db sqlx.QueryerContext, name string) (bool, error) {
	var n int
	err := sqlx.GetContext(ctx, db, &n, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name)
	return n > 0, err
}

// orZero is the column of table to select, or 0 under its name when a
// catalog opened read-only (not migrated) predates the column.
func orZero(ctx context.Context, db sqlx.QueryerContext, table, column string) (string, error) {
	var n int
	err := sqlx.GetContext(ctx, db, &n, `SELECT count(*) FROM pragma_table_info(?) WHERE name = ?`, table, column)
	if n == 0 {
		return "0 AS " + column, err
	}
	return column, err
}

// puzzleTables returns the names of a puzzle's solution and class tables:
// "queens:8" has solutions_queens_8 and classes_queens_8.
func puzzleTables(puzzle string) (solutions, classes string) {
	return "solutions_" + tableSuffix(puzzle), "classes_" + tableSuffix(puzzle)
}

// rawNames names what lies under the names SQL users read, of a puzzle
// stored solution by solution: "queens:8" has the view
// solutions_queens_8_raw (the cells as bytes) and the table
// classes_queens_8_raw (the canonical forms as bytes), under the views
// solutions_queens_8 and classes_queens_8, which show them as text.
func rawNames(puzzle string) (solutions, classes string) {
	return "solutions_" + tableSuffix(puzzle) + rawSuffix, "classes_" + tableSuffix(puzzle) + rawSuffix
}

// legacyClassesView names the view of a puzzle's classes as text in a
// catalog of schema 13, whose class table was classes_<p> itself.
func legacyClassesView(puzzle string) string {
	return "classes_" + tableSuffix(puzzle) + readableSuffix
}

// classTable returns the table that holds a puzzle's classes in schema
// ("main", or an attached shard): classes_<p>_raw, under the view
// classes_<p>, or classes_<p> where that is a table (a catalog of schema
// 13 and below, opened to read only or not yet upgraded).
func classTable(ctx context.Context, db rowQueryer, schema string, rec Record) (string, error) {
	_, cls := puzzleTables(rec.Name)
	_, raw := rawNames(rec.Name)
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+schema+".sqlite_master WHERE type = 'table' AND name = ?", cls).Scan(&n)
	if n > 0 {
		return cls, err
	}
	return raw, err
}

// The ends of the names of rawNames and legacyClassesView.
const (
	rawSuffix      = "_raw"
	readableSuffix = "_readable"
)

// propsTable names the table of class properties of a puzzle stored as its
// classes only: "magic:5" has props_magic_5.
func propsTable(puzzle string) string { return "props_" + tableSuffix(puzzle) }

// tableSuffix is the puzzle's name as it ends its tables' names.
func tableSuffix(puzzle string) string {
	return strings.NewReplacer(":", "_", "-", "_").Replace(puzzle)
}

// Storage says how a puzzle is stored.
type Storage string

const (
	StorageSolutions Storage = "solutions" // every solution, in blocks
	StorageClasses   Storage = "classes"   // the classes' canonical forms only (magic:5)
	StorageCounts    Storage = "counts"    // the counts only
	StorageShard     Storage = "shard"     // one shard of a split build, not the whole puzzle
)

// Fault is the fault of the disk that err reports, met while writing the
// catalog: catfile.ErrDiskFull or catfile.ErrIO, told by SQLite's result
// code or the system's error number (never by the message); nil for any
// other error.
func (c *Catalog) Fault(err error) error { return catfile.Fault(c.file, err) }

// Query runs a user's read-only statement (see usersql.Query). Close the
// rows after use.
func (c *Catalog) Query(ctx context.Context, text string) (*usersql.Rows, error) {
	return usersql.Query(ctx, c.db, text)
}
