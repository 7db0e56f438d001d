package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"solcat/migrations"
)

// DefaultBatch is how many rows one INSERT statement carries. With this
// driver a multi-row INSERT is several times faster than one Exec per row.
const DefaultBatch = 256

// Writer writes one puzzle in units. Rows go to staging tables and are
// committed every plan.UnitRows rows together with the builds row that
// records how far the build got, so a build killed at any moment loses at
// most the unit in flight and resumes from there. Until Commit, the puzzle's
// previous content (if any) stays in place and readable; Commit swaps the
// staging tables in and records the puzzle in one transaction.
type Writer struct {
	db         *sqlx.DB
	tx         *sqlx.Tx
	ctx        context.Context
	name       string
	plan       BuildPlan
	solTable   string
	classTable string
	propsTable string // classes-only builds: the classes with properties
	block      []byte // classes-only builds: the forms of the block being filled
	formLen    int    // classes-only builds: bytes per canonical form
	batch      int
	solutions  *table
	classes    *table
	props      *table
	hash       *ContentHash
	arena      []byte // copies of the cells of the batch being queued

	classesDone, solutionsDone int64  // committed, by this run or an earlier one
	resumedRows                int64  // rows an earlier run had committed
	discarded                  string // why a saved build could not be resumed
	lastClass, seenSolutions   int64  // how far the caller's stream has come
	pending                    int64  // rows queued since the last unit commit
	maxSolutionID              int64  // in the saved staging table, for a shard's check in SetFirstID
	firstID                    int64  // a shard's first solution ID
}

// BuildPlan says how a build is cut into units.
type BuildPlan struct {
	Layout    string // names the unit layout and solver; a saved build with another layout starts over
	UnitRows  int64  // rows (classes and solutions) per committed unit
	RowsTotal int64  // rows expected in all, for the percentage others see
	Shard     bool   // a shard of a split build: its solution IDs start at SetFirstID's, and it ends with CommitShard
	// ClassesOnly stores classes and no solutions (storage 'classes'):
	// canonical forms come packed and are stored ClassesPerBlock to a row;
	// properties go to a table of their own. Units end at block boundaries.
	ClassesOnly bool
}

// ClassesPerBlock is how many packed canonical forms a row of a
// classes-only puzzle holds: block k holds classes 127(k-1)+1 to 127k, in
// order. With this driver a row costs about a microsecond to write and a
// few hundred nanoseconds to read, whatever its size, so one row per class
// would make the 275 million classes of magic:5 slow to build and to scan;
// 127 forms of 16 bytes (2,032 bytes) is the most that lets two rows share a
// 4 KiB page whole.
const ClassesPerBlock = 127

// Building is the progress of an unfinished build, as the builds row has it.
type Building struct {
	Puzzle        string `db:"puzzle"`
	ClassesDone   int64  `db:"classes_done"`
	SolutionsDone int64  `db:"solutions_done"`
	RowsTotal     int64  `db:"rows_total"`
	StartedAt     string `db:"started_at"`
	UpdatedAt     string `db:"updated_at"`
}

// Percent is how much of the build is committed.
func (b Building) Percent() int {
	if b.RowsTotal <= 0 {
		return 0
	}
	return int(100 * (b.ClassesDone + b.SolutionsDone) / b.RowsTotal)
}

// Building returns the unfinished build of a puzzle, if there is one.
func (c *Catalog) Building(ctx context.Context, puzzle string) (b Building, ok bool, err error) {
	if has, err := HasTable(ctx, c.db, "builds"); err != nil || !has {
		return b, false, err // a catalog from before resumable builds
	}
	err = c.db.GetContext(ctx, &b, `SELECT puzzle, classes_done, solutions_done, rows_total, started_at, updated_at FROM builds WHERE puzzle = ?`, puzzle)
	if errors.Is(err, sql.ErrNoRows) {
		return b, false, nil
	}
	return b, err == nil, err
}

// Builds lists the unfinished builds.
func (c *Catalog) Builds(ctx context.Context) ([]Building, error) {
	if has, err := HasTable(ctx, c.db, "builds"); err != nil || !has {
		return nil, err
	}
	var out []Building
	err := c.db.SelectContext(ctx, &out, `SELECT puzzle, classes_done, solutions_done, rows_total, started_at, updated_at FROM builds ORDER BY puzzle`)
	return out, err
}

// stagingSuffix marks the tables of a build in progress.
const stagingSuffix = "_building"

// Begin starts or resumes writing puzzle. Rows go out batch at a time
// (DefaultBatch if batch < 1). A saved unfinished build with the same
// layout is resumed: the caller streams every row again and the writer
// skips those already committed. One that does not match its record is
// started over (Discarded says why).
func (c *Catalog) Begin(ctx context.Context, puzzle string, plan BuildPlan, batch int) (*Writer, error) {
	if batch < 1 {
		batch = DefaultBatch
	}
	plan.UnitRows = max(plan.UnitRows, 1)
	w := &Writer{db: c.db, ctx: ctx, name: puzzle, plan: plan, batch: batch}
	w.solTable, w.classTable = Tables(puzzle)
	w.solTable += stagingSuffix
	w.classTable += stagingSuffix
	w.propsTable = PropsTable(puzzle) + stagingSuffix
	if err := w.start(); err != nil {
		return nil, err
	}
	if err := w.begin(); err != nil {
		return nil, err
	}
	return w, nil
}

// start resumes the saved build or sets up a new one, and commits that.
func (w *Writer) start() error {
	tx, err := w.db.BeginTxx(w.ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var saved struct {
		Layout        string `db:"layout"`
		ClassesDone   int64  `db:"classes_done"`
		SolutionsDone int64  `db:"solutions_done"`
		HashState     []byte `db:"hash_state"`
	}
	err = tx.GetContext(w.ctx, &saved, `SELECT layout, classes_done, solutions_done, hash_state FROM builds WHERE puzzle = ?`, w.name)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err == nil && saved.Layout == w.plan.Layout {
		var classes, solutions int64
		q := "SELECT (SELECT coalesce(max(id), 0) FROM " + w.classTable + "), (SELECT coalesce(max(id), 0) FROM " + w.solTable + ")"
		if w.plan.ClassesOnly {
			q = fmt.Sprintf("SELECT (SELECT count(*) * %d FROM %s), 0", ClassesPerBlock, w.classTable) // units end at block boundaries
		}
		err := tx.QueryRowContext(w.ctx, q).Scan(&classes, &solutions)
		// A shard's solution IDs start further on: SetFirstID checks them.
		if err == nil && (classes != saved.ClassesDone || (solutions != saved.SolutionsDone && !w.plan.Shard)) {
			err = fmt.Errorf("it has %d classes and %d solutions, its record says %d and %d", classes, solutions, saved.ClassesDone, saved.SolutionsDone)
		}
		if err == nil {
			w.hash, err = resumeContentHash(saved.HashState)
		}
		if err == nil {
			w.maxSolutionID = solutions
			w.classesDone, w.solutionsDone = saved.ClassesDone, saved.SolutionsDone
			w.resumedRows = w.classesDone + w.solutionsDone
			return nil
		}
		w.discarded = err.Error()
	}
	w.hash = NewContentHash()
	state, err := w.hash.state()
	if err != nil {
		return err
	}
	now := time.Now().UTC().Format(time.RFC3339)
	ddl := "DROP TABLE IF EXISTS " + w.solTable + "; DROP TABLE IF EXISTS " + w.classTable + "; DROP TABLE IF EXISTS " + w.propsTable + ";"
	if w.plan.ClassesOnly {
		ddl += migrations.ClassOnlyTables(w.classTable, w.propsTable)
	} else {
		ddl += migrations.PuzzleTables(w.solTable, w.classTable)
	}
	if _, err := tx.ExecContext(w.ctx, ddl); err != nil {
		return fmt.Errorf("cannot create tables for %s: %w", w.name, err)
	}
	if _, err := tx.ExecContext(w.ctx, `INSERT OR REPLACE INTO builds (puzzle, layout, classes_done, solutions_done, rows_total, hash_state, started_at, updated_at)
		VALUES (?, ?, 0, 0, ?, ?, ?, ?)`, w.name, w.plan.Layout, w.plan.RowsTotal, state, now, now); err != nil {
		return err
	}
	return tx.Commit()
}

// begin opens the transaction of the next unit.
func (w *Writer) begin() error {
	tx, err := w.db.BeginTxx(w.ctx, nil)
	if err != nil {
		return err
	}
	w.tx = tx
	// Solution rows take the next rowid, which is the solution ID because
	// they are added in ID order (Commit checks it).
	w.solutions = &table{w: w, insert: "INSERT INTO " + w.solTable + " (cells, class_sym) VALUES ", columns: 2}
	w.classes = &table{w: w, insert: "INSERT INTO " + w.classTable + " (id, canonical, orbit, props) VALUES ", columns: 4}
	if w.plan.ClassesOnly {
		w.classes = &table{w: w, insert: "INSERT INTO " + w.classTable + " (block, forms) VALUES ", columns: 2}
		w.props = &table{w: w, insert: "INSERT INTO " + w.propsTable + " (id, props) VALUES ", columns: 2}
	}
	return nil
}

// Discarded says why a saved build was started over, or is empty.
func (w *Writer) Discarded() string { return w.discarded }

// Resumed is how many rows (classes and solutions) an earlier run had committed.
func (w *Writer) Resumed() int64 { return w.resumedRows }

// Saved is how many rows are committed so far, and how many are expected.
func (w *Writer) Saved() (done, total int64) {
	return w.classesDone + w.solutionsDone, w.plan.RowsTotal
}

// AddClass queues one class row; props is the class's property bit set.
// Classes come in ID order; those already committed are skipped.
func (w *Writer) AddClass(id int64, canonical []byte, orbit int, props uint32) error {
	w.lastClass = id
	if w.plan.ClassesOnly && w.formLen == 0 {
		// Set even when every class is skipped, for Commit's byte check.
		w.formLen = len(canonical)
		w.block = make([]byte, 0, ClassesPerBlock*w.formLen)
	}
	if id <= w.classesDone {
		return nil
	}
	w.hash.AddClass(canonical, orbit)
	if w.plan.ClassesOnly {
		if props != 0 {
			if err := w.props.add(id, int64(props)); err != nil {
				return err
			}
		}
		w.block = append(w.block, canonical...)
		if id%ClassesPerBlock != 0 {
			return nil // a unit ends with a full block
		}
		if err := w.addBlock(id); err != nil {
			return err
		}
		return w.counted(ClassesPerBlock)
	}
	if err := w.classes.add(id, canonical, orbit, int64(props)); err != nil {
		return err
	}
	return w.counted(1)
}

// AddSolution queues the next solution row; solutions must come in ID
// order, 1, 2, 3, ..., and those already committed are skipped. The cells
// are copied.
func (w *Writer) AddSolution(cells []byte, classID int64, symmetry int) error {
	w.seenSolutions++
	if w.seenSolutions <= w.solutionsDone {
		return nil
	}
	w.hash.AddSolution(cells, classID, symmetry)
	// Copies go to an arena that holds one batch, so a big build does not
	// allocate once per row; the batch is sent before the arena is reused.
	if len(w.arena)+len(cells) > cap(w.arena) {
		w.arena = make([]byte, 0, w.batch*len(cells))
	}
	start := len(w.arena)
	w.arena = append(w.arena, cells...)
	if err := w.solutions.add(w.arena[start:len(w.arena):len(w.arena)], classID<<3|int64(symmetry)); err != nil {
		return err
	}
	return w.counted(1)
}

// addBlock queues the block that ends with class id; the table keeps the
// slice until its statement runs, so the next block gets a new one.
func (w *Writer) addBlock(id int64) error {
	if len(w.block) == 0 {
		return nil
	}
	err := w.classes.add((id-1)/ClassesPerBlock+1, w.block)
	w.block = make([]byte, 0, ClassesPerBlock*w.formLen)
	return err
}

// counted commits a unit when enough rows are queued.
func (w *Writer) counted(rows int64) error {
	if w.pending += rows; w.pending < w.plan.UnitRows {
		return nil
	}
	return w.commitUnit()
}

// commitUnit writes what is queued and commits it with the builds row.
func (w *Writer) commitUnit() error {
	if err := w.flush(); err != nil {
		return err
	}
	state, err := w.hash.state()
	if err != nil {
		return err
	}
	classes, solutions := max(w.classesDone, w.lastClass), max(w.solutionsDone, w.seenSolutions)
	res, err := w.tx.ExecContext(w.ctx, `UPDATE builds SET classes_done = ?, solutions_done = ?, hash_state = ?, updated_at = ?
		WHERE puzzle = ? AND classes_done = ? AND solutions_done = ?`,
		classes, solutions, state, time.Now().UTC().Format(time.RFC3339), w.name, w.classesDone, w.solutionsDone)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("the saved build of %s changed under this one: is another 'solcat build %s' writing to this catalog?", w.name, w.name)
	}
	if err := w.tx.Commit(); err != nil {
		return err
	}
	w.classesDone, w.solutionsDone, w.pending = classes, solutions, 0
	return w.begin()
}

func (w *Writer) flush() error {
	if err := w.classes.flush(); err != nil {
		return err
	}
	if w.props != nil {
		if err := w.props.flush(); err != nil {
			return err
		}
	}
	return w.solutions.flush()
}

// PropsCounts writes what is queued and counts the classes written so far
// by their properties (classes-only builds, whose properties have a table).
func (w *Writer) PropsCounts(ctx context.Context) (map[int64]int64, error) {
	if err := w.flush(); err != nil {
		return nil, err
	}
	rows, err := w.tx.QueryContext(ctx, "SELECT props, count(*) FROM "+w.propsTable+" GROUP BY props")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var props, n int64
		if err := rows.Scan(&props, &n); err != nil {
			return nil, err
		}
		out[props] = n
	}
	return out, rows.Err()
}

// Commit writes what is queued, puts the new tables in place of the
// puzzle's old ones, records the puzzle (with its breakdown, if any) and
// ends the build, all in one transaction.
func (w *Writer) Commit(rec Record, breakdown ...Breakdown) error {
	defer w.tx.Rollback()
	if err := w.flush(); err != nil {
		return err
	}
	var rows, maxID int64
	if w.plan.ClassesOnly {
		added := max(w.classesDone, w.lastClass)
		if err := w.addBlock(added); err != nil {
			return err
		}
		if err := w.classes.flush(); err != nil {
			return err
		}
		var bytes int64
		if err := w.tx.QueryRowContext(w.ctx, "SELECT count(*), coalesce(max(block), 0), coalesce(sum(length(forms)), 0) FROM "+w.classTable).Scan(&rows, &maxID, &bytes); err != nil {
			return err
		}
		blocks := (added + ClassesPerBlock - 1) / ClassesPerBlock
		if rows != blocks || maxID != blocks || bytes != added*int64(w.formLen) || rec.Classes != added {
			return fmt.Errorf("%s: %d classes recorded, %d added, %d blocks with highest number %d and %d bytes; the build is not finished (this is a bug, please report it)", w.name, rec.Classes, added, rows, maxID, bytes)
		}
	} else if err := w.tx.QueryRowContext(w.ctx, "SELECT count(*), coalesce(max(id), 0) FROM "+w.solTable).Scan(&rows, &maxID); err != nil {
		return err
	} else if added := max(w.solutionsDone, w.seenSolutions); rows != added || maxID != added || rec.Solutions != added {
		return fmt.Errorf("%s: %d solutions recorded, %d added, %d rows with highest ID %d; the build is not finished (this is a bug, please report it)", w.name, rec.Solutions, added, rows, maxID)
	}
	if err := swapIn(w.ctx, w.tx.Tx, w.name); err != nil {
		return err
	}
	rec.Name = w.name
	rec.ContentHash = w.hash.Sum()
	if err := insertRecord(w.ctx, w.tx.Tx, rec); err != nil {
		return err
	}
	if err := insertBreakdown(w.ctx, w.tx.Tx, w.name, breakdown); err != nil {
		return err
	}
	return w.tx.Commit()
}

// SetFirstID tells a shard's writer the ID of its first solution; call it
// before AddSolution. A placeholder row just below it makes the rowids
// that follow count on from there; CommitShard deletes it.
func (w *Writer) SetFirstID(id int64) error {
	w.firstID = id
	if w.solutionsDone > 0 && w.maxSolutionID != id-1+w.solutionsDone {
		return fmt.Errorf("the saved shard of %s ends at solution %d, but %d solutions from %d would end at %d; start it over with --force",
			w.name, w.maxSolutionID, w.solutionsDone, id, id-1+w.solutionsDone)
	}
	if id <= 1 {
		return nil
	}
	_, err := w.tx.ExecContext(w.ctx, "INSERT OR IGNORE INTO "+w.solTable+" (id, cells, class_sym) VALUES (?, x'', 0)", id-1)
	return err
}

// CommitShard finishes a shard of a split build: its tables take the
// puzzle's names in this catalog, and the shard is recorded as done, for
// 'solcat merge'; the puzzle itself is not recorded here.
func (w *Writer) CommitShard(shard Shard) error {
	defer w.tx.Rollback()
	if err := w.flush(); err != nil {
		return err
	}
	if w.firstID > 1 {
		if _, err := w.tx.ExecContext(w.ctx, "DELETE FROM "+w.solTable+" WHERE id = ?", w.firstID-1); err != nil {
			return err
		}
	}
	var rows, minID, maxID int64
	if err := w.tx.QueryRowContext(w.ctx, "SELECT count(*), coalesce(min(id), 0), coalesce(max(id), 0) FROM "+w.solTable).Scan(&rows, &minID, &maxID); err != nil {
		return err
	}
	added := max(w.solutionsDone, w.seenSolutions)
	if rows != added || (rows > 0 && (minID != w.firstID || maxID != w.firstID+rows-1)) {
		return fmt.Errorf("%s: the shard has %d rows with IDs %d to %d, %d added from %d; it is not finished (this is a bug, please report it)", w.name, rows, minID, maxID, added, w.firstID)
	}
	if err := swapIn(w.ctx, w.tx.Tx, w.name); err != nil {
		return err
	}
	shard.Puzzle, shard.Done = w.name, true
	if _, err := w.tx.ExecContext(w.ctx, `INSERT OR REPLACE INTO shards (puzzle, shard, of, layout, units, done) VALUES (?, ?, ?, ?, ?, 1)`,
		shard.Puzzle, shard.Shard, shard.Of, shard.Layout, shard.Units); err != nil {
		return err
	}
	return w.tx.Commit()
}

// swapIn puts a puzzle's staging tables in place of its tables inside tx,
// dropping the old tables, the puzzle's record and its builds row. Every
// name is qualified with main: merge attaches shards that have the same
// table names, and SQLite would look an unqualified name up in them too.
func swapIn(ctx context.Context, tx *sql.Tx, puzzle string) error {
	sol, cls := Tables(puzzle)
	stmts := "DELETE FROM main.puzzles WHERE name = ?; DELETE FROM main.builds WHERE puzzle = ?;"
	for _, name := range []string{sol, cls, PropsTable(puzzle)} {
		stmts += "DROP TABLE IF EXISTS main." + name + ";"
		var staged int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name = ?", name+stagingSuffix).Scan(&staged); err != nil {
			return err
		}
		if staged > 0 {
			stmts += "ALTER TABLE main." + name + stagingSuffix + " RENAME TO " + name + ";"
		}
	}
	_, err := tx.ExecContext(ctx, stmts, puzzle, puzzle)
	return err
}

// Abandon drops a saved unfinished build of puzzle, if there is one.
func (c *Catalog) Abandon(ctx context.Context, puzzle string) error {
	sol, cls := Tables(puzzle)
	_, err := c.db.ExecContext(ctx, "DELETE FROM builds WHERE puzzle = ?; DROP TABLE IF EXISTS "+sol+stagingSuffix+"; DROP TABLE IF EXISTS "+cls+stagingSuffix+
		"; DROP TABLE IF EXISTS "+PropsTable(puzzle)+stagingSuffix, puzzle)
	return err
}

func insertRecord(ctx context.Context, tx *sql.Tx, rec Record) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO puzzles (name, kind, n, storage, solutions, classes,
		orbit1, orbit2, orbit4, orbit8, known_solutions, known_classes, verified, search_nodes,
		workers, build_seconds, built_at, solver_version, content_hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rec.Name, rec.Kind, rec.N, rec.Storage, rec.Solutions, rec.Classes,
		rec.Orbit1, rec.Orbit2, rec.Orbit4, rec.Orbit8, rec.KnownSolutions, rec.KnownClasses, rec.Verified,
		rec.SearchNodes, rec.Workers, rec.BuildSeconds, rec.BuiltAt, rec.SolverVersion, rec.ContentHash)
	if err != nil {
		return fmt.Errorf("cannot record %s: %w", rec.Name, err)
	}
	return nil
}

// Rollback abandons the unit in flight; the units committed stay saved for
// a later run to resume.
func (w *Writer) Rollback() { w.tx.Rollback() }

// table buffers rows and inserts them with one prepared multi-row statement
// per full batch.
type table struct {
	w       *Writer
	insert  string
	columns int
	args    []any
	full    *sql.Stmt
}

func (t *table) add(values ...any) error {
	t.args = append(t.args, values...)
	if len(t.args) < t.w.batch*t.columns {
		return nil
	}
	if t.full == nil {
		stmt, err := t.w.tx.PrepareContext(t.w.ctx, t.statement(t.w.batch))
		if err != nil {
			return err
		}
		t.full = stmt
	}
	_, err := t.full.ExecContext(t.w.ctx, t.args...)
	t.args = t.args[:0]
	return err
}

func (t *table) flush() error {
	if len(t.args) == 0 {
		return nil
	}
	_, err := t.w.tx.ExecContext(t.w.ctx, t.statement(len(t.args)/t.columns), t.args...)
	t.args = t.args[:0]
	return err
}

func (t *table) statement(rows int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", t.columns), ",") + ")"
	return t.insert + strings.TrimSuffix(strings.Repeat(row+",", rows), ",")
}
