package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"solcat/canon"
	"solcat/catalog/catfile"
	"solcat/migrations"
)

// A build writes one puzzle in units, through a SolutionWriter (every
// solution, in blocks, and its classes) or a ClassWriter (the classes
// alone, as packed forms). Rows go to staging tables and are committed
// every plan.UnitRows rows together with the builds row that records how
// far the build got, so a build killed at any moment loses at most the
// unit in flight and resumes from there. Until the writer's Commit, the
// puzzle's previous content (if any) stays in place and readable; Commit
// swaps the staging tables in and records the puzzle in one transaction.
// What the two writers share, the units, the builds row and the content
// hash, is a unitWriter.

// defaultBatch is how many rows one INSERT statement carries. With this
// driver a multi-row INSERT is several times faster than one Exec per row.
const defaultBatch = 256

// blockBatch is how many block rows one INSERT statement carries.
const blockBatch = 16

// catchUpUnits is how many units a writer commits between waits for the
// checkpoints to catch up: the log holds at most about that many units.
const catchUpUnits = 4

// stagingSuffix marks the tables of a build in progress.
const stagingSuffix = "_building"

// BuildPlan says how a build is cut into units.
type BuildPlan struct {
	Layout    Layout // a saved build with another layout starts over; a shard's build has its shard in it
	UnitRows  int64  // rows (classes and solutions) per committed unit
	RowsTotal int64  // rows expected in all, for the percentage others see
}

// unitWriter writes a build's rows in units, each committed with the
// builds row and the content hash's state.
type unitWriter struct {
	db         *sqlx.DB
	tx         *sqlx.Tx // the unit in flight
	ctx        context.Context
	file       string // the catalog file, whose disk Fault asks about
	p          canon.Puzzle
	name       string // p's name, which its tables and rows are keyed by
	plan       BuildPlan
	batch      int
	hash       *ContentHash
	checkpoint *catfile.Checkpointer
	tables     []*table // where rows are queued, flushed in this order
	// beforeCommit, if set, queues what must be committed with a unit's
	// rows (a block index row being filled).
	beforeCommit func() error

	classesDone, solutionsDone int64  // committed, by this run or an earlier one
	resumedRows                int64  // rows an earlier run had committed
	discarded                  string // why a saved build could not be resumed
	lastClass                  int64  // the last class the caller handed over
	queuedSolutions            int64  // solutions whose rows are queued, from the first (not those of a block being filled)
	pending                    int64  // rows queued since the last unit commit
	units                      int    // committed by this run
}

func (c *Catalog) newUnitWriter(ctx context.Context, p canon.Puzzle, plan BuildPlan, batch int) unitWriter {
	if batch < 1 {
		batch = defaultBatch
	}
	plan.UnitRows = max(plan.UnitRows, 1)
	return unitWriter{db: c.db, ctx: ctx, file: c.file, p: p, name: p.String(), plan: plan, batch: batch, checkpoint: c.checkpoint}
}

// stagedRows is what the staging tables of a saved build hold, as the
// writer that resumes it counts them.
type stagedRows struct {
	classes, solutions int64
	maxID              int64 // the highest solution ID
	lacking            int64 // members the saved classes lack, below 8 each (queens stored as classes)
	lastOrbit          int64 // the last class with fewer than 8 members (queens stored as classes)
}

// start resumes the saved build, if its layout is the plan's and its
// staging tables hold what its builds row says (counted by staged), or
// else sets up a new one (the staging tables made by ddl) and commits
// that. It returns what the resumed build's staging tables hold.
func (u *unitWriter) start(staged func(*sqlx.Tx) (stagedRows, error), ddl string) (stagedRows, error) {
	tx, err := u.db.BeginTxx(u.ctx, nil)
	if err != nil {
		return stagedRows{}, err
	}
	defer tx.Rollback()
	var saved struct {
		Layout        storedLayout `db:"layout"`
		ClassesDone   int64        `db:"classes_done"`
		SolutionsDone int64        `db:"solutions_done"`
		HashState     []byte       `db:"hash_state"`
	}
	err = tx.GetContext(u.ctx, &saved, `SELECT layout, classes_done, solutions_done, hash_state FROM builds WHERE puzzle = ?`, u.name)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return stagedRows{}, err
	}
	if err == nil && Layout(saved.Layout) == u.plan.Layout {
		rows, err := staged(tx)
		// A shard's solution IDs start further on: SetFirstID checks them.
		if err == nil && (rows.classes != saved.ClassesDone || rows.solutions != saved.SolutionsDone ||
			(rows.maxID != rows.solutions && u.plan.Layout.Of == 0) || rows.lastOrbit > rows.classes) {
			err = fmt.Errorf("it has %d classes and %d solutions, its record says %d and %d", rows.classes, rows.solutions, saved.ClassesDone, saved.SolutionsDone)
		}
		if err == nil {
			u.hash, err = resumeContentHash(saved.HashState)
		}
		if err == nil {
			u.classesDone, u.solutionsDone = saved.ClassesDone, saved.SolutionsDone
			u.resumedRows = u.classesDone + u.solutionsDone
			return rows, nil
		}
		u.discarded = err.Error()
	}
	u.hash = NewContentHash()
	state, err := u.hash.state()
	if err != nil {
		return stagedRows{}, err
	}
	now := time.Now().UTC().Format(time.RFC3339)
	if _, err := tx.ExecContext(u.ctx, dropStaging(u.name)+ddl); err != nil {
		return stagedRows{}, fmt.Errorf("cannot create tables for %s: %w", u.name, err)
	}
	if _, err := tx.ExecContext(u.ctx, `INSERT OR REPLACE INTO builds (puzzle, layout, classes_done, solutions_done, rows_total, hash_state, started_at, updated_at)
		VALUES (?, ?, 0, 0, ?, ?, ?, ?)`, u.name, storedLayout(u.plan.Layout), u.plan.RowsTotal, state, now, now); err != nil {
		return stagedRows{}, err
	}
	return stagedRows{}, tx.Commit()
}

// begin opens the transaction of the next unit.
func (u *unitWriter) begin() error {
	tx, err := u.db.BeginTxx(u.ctx, nil)
	if err != nil {
		return err
	}
	u.tx = tx
	for _, t := range u.tables {
		t.full = nil // prepared in the last unit's transaction, which closed it
	}
	return nil
}

// Fault is Catalog.Fault for an error the writer met.
func (u *unitWriter) Fault(err error) error { return catfile.Fault(u.file, err) }

// Discarded says why a saved build was started over, or is empty.
func (u *unitWriter) Discarded() string { return u.discarded }

// Resumed is how many rows (classes and solutions) an earlier run had committed.
func (u *unitWriter) Resumed() int64 { return u.resumedRows }

// SavedRows is how many classes and how many solutions are committed so
// far.
func (u *unitWriter) SavedRows() (classes, solutions int64) {
	return u.classesDone, u.solutionsDone
}

// Saved is how many rows are committed so far, and how many are expected.
func (u *unitWriter) Saved() (done, total int64) {
	return u.classesDone + u.solutionsDone, u.plan.RowsTotal
}

// counted commits a unit when enough rows are queued.
func (u *unitWriter) counted(rows int64) error {
	if u.pending += rows; u.pending < u.plan.UnitRows {
		return nil
	}
	return u.commitUnit()
}

// newClass notes class id (its form as stored, and its orbit) as the
// caller's last and reports whether this run adds it: a class an earlier
// run committed is skipped; one added goes into the content hash.
func (u *unitWriter) newClass(id int64, form []byte, orbit int) bool {
	u.lastClass = id
	if id <= u.classesDone {
		return false
	}
	u.hash.AddClass(form, orbit)
	return true
}

// commitUnit writes what is queued and commits it with the builds row.
func (u *unitWriter) commitUnit() error {
	if u.beforeCommit != nil {
		if err := u.beforeCommit(); err != nil {
			return err
		}
	}
	if err := u.flush(); err != nil {
		return err
	}
	state, err := u.hash.state()
	if err != nil {
		return err
	}
	classes, solutions := max(u.classesDone, u.lastClass), max(u.solutionsDone, u.queuedSolutions)
	res, err := u.tx.ExecContext(u.ctx, `UPDATE builds SET classes_done = ?, solutions_done = ?, hash_state = ?, updated_at = ?
		WHERE puzzle = ? AND classes_done = ? AND solutions_done = ?`,
		classes, solutions, state, time.Now().UTC().Format(time.RFC3339), u.name, u.classesDone, u.solutionsDone)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("the saved build of %s changed under this one: another process wrote it", u.name)
	}
	if err := u.tx.Commit(); err != nil {
		return err
	}
	if u.units++; u.units%catchUpUnits == 0 {
		u.checkpoint.CatchUp()
	} else {
		u.checkpoint.Committed()
	}
	u.classesDone, u.solutionsDone, u.pending = classes, solutions, 0
	return u.begin()
}

// flush writes what is queued.
func (u *unitWriter) flush() error {
	for _, t := range u.tables {
		if err := t.flush(); err != nil {
			return err
		}
	}
	return nil
}

// commit puts the staging tables in place of the puzzle's (solution
// blocks with class entries digits wide, if any), records the puzzle with
// its content hash and its breakdown, and ends the build, all in the
// transaction of the last unit.
func (u *unitWriter) commit(rec Record, breakdown []Breakdown, digits int) error {
	if err := swapIn(u.ctx, u.tx.Tx, u.p, digits); err != nil {
		return err
	}
	rec.Name = u.name
	rec.ContentHash = u.hash.Sum()
	if err := insertRecord(u.ctx, u.tx.Tx, rec); err != nil {
		return err
	}
	if err := insertBreakdown(u.ctx, u.tx.Tx, rec, breakdown); err != nil {
		return err
	}
	return u.end(u.tx.Commit())
}

// end asks for a checkpoint once the writer's last transaction is over.
func (u *unitWriter) end(err error) error {
	u.checkpoint.Committed()
	u.checkpoint = nil
	return err
}

// Rollback abandons the unit in flight; the units committed stay saved for
// a later run to resume.
func (u *unitWriter) Rollback() {
	u.tx.Rollback()
	u.end(nil)
}

// swapIn puts p's staging tables in place of its tables inside tx,
// dropping the old tables, the puzzle's record and its builds row, and
// shows staged solution blocks through the solutions view (class entries
// digits wide, as they were written), their classes under classes_<p>_raw
// and through the view classes_<p>. Every name is qualified with main:
// merge attaches shards that have the same table names, and SQLite would
// look an unqualified name up in them too.
func swapIn(ctx context.Context, tx *sql.Tx, p canon.Puzzle, digits int) error {
	puzzle := p.String()
	_, cls := puzzleTables(puzzle)
	_, clsRaw := rawNames(puzzle)
	blocks, index := blocksTable(puzzle), blockIndexTable(puzzle)
	// The views go first: renaming a table fails while a view names a
	// table that is gone.
	drop, err := dropViews(ctx, tx, "main", puzzle)
	if err != nil {
		return err
	}
	// A shard's mark goes too: the file now holds the puzzle (CommitShard
	// marks it again).
	stmts := "DELETE FROM main.puzzles WHERE name = ?; DELETE FROM main.builds WHERE puzzle = ?; DELETE FROM main.shards WHERE puzzle = ?;" + drop
	for _, name := range []string{blocks, index, cls, clsRaw, propsTable(puzzle), orbitsTable(puzzle), classIndexTable(puzzle), classChecksTable(puzzle)} {
		stmts += "DROP TABLE IF EXISTS main." + name + ";"
	}
	staged := map[string]bool{}
	for _, name := range []string{blocks, index, cls, propsTable(puzzle), orbitsTable(puzzle), classIndexTable(puzzle), classChecksTable(puzzle)} {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name = ?", name+stagingSuffix).Scan(&n); err != nil {
			return err
		}
		if staged[name] = n > 0; !staged[name] {
			continue
		}
		if name != cls {
			stmts += "ALTER TABLE main." + name + stagingSuffix + " RENAME TO " + name + ";"
			continue
		}
		// The classes lie under the view SQL users read.
		stmts += "ALTER TABLE main." + name + stagingSuffix + " RENAME TO " + clsRaw + ";"
		add, err := addsReadable(ctx, tx, name+stagingSuffix)
		if err != nil {
			return err
		}
		if add {
			stmts += migrations.ReadableClassColumns("main."+clsRaw, readable(p))
		}
	}
	switch {
	case staged[blocks]:
		stmts += solutionViews(p, digits, 3, "main.") // staged blocks are of layout 3
	case staged[propsTable(puzzle)]: // stored as its classes only
		view, err := packedView(p, "main.")
		if err != nil {
			return err
		}
		stmts += view
	}
	_, err = tx.ExecContext(ctx, stmts, puzzle, puzzle, puzzle)
	return err
}

// addsReadable reports whether swapIn adds the readable columns to a
// staging class table: a build fills one row per class without them (a
// solcat before this one made them at the start); a puzzle stored as its
// classes only has no such row.
func addsReadable(ctx context.Context, tx rowQueryer, staging string) (bool, error) {
	rows, err := hasColumn(ctx, tx, "main", staging, "canonical")
	if err != nil || !rows {
		return false, err
	}
	made, err := hasColumn(ctx, tx, "main", staging, "form")
	return !made, err
}

// dropViews is the SQL that drops a puzzle's views (those SQL users read,
// the raw solutions view, and the classes view of schema 13), and the
// solutions table of a puzzle stored before blocks; its tables stay.
func dropViews(ctx context.Context, tx rowQueryer, schema, puzzle string) (string, error) {
	sol, cls := puzzleTables(puzzle)
	raw, _ := rawNames(puzzle)
	var ddl string
	// A readable view reads the raw one: it goes first.
	for _, name := range []string{sol, raw, legacyClassesView(puzzle), cls} {
		var kind string
		err := tx.QueryRowContext(ctx, "SELECT type FROM "+schema+".sqlite_master WHERE name = ? AND type IN ('table', 'view')", name).Scan(&kind)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return "", err
		case kind == "view", name == sol: // solutions_<p> was a table before blocks
			ddl += "DROP " + strings.ToUpper(kind) + " " + schema + "." + name + ";"
		}
	}
	return ddl, nil
}

// solutionViews is the SQL that makes the views of a puzzle stored
// solution by solution (its blocks' class entries digits wide, of block
// layout 1 to 3), schema "main." or "": solutions_<p>_raw over its blocks,
// and solutions_<p> and classes_<p>, which hold no bytes, over
// solutions_<p>_raw and the table classes_<p>_raw.
func solutionViews(p canon.Puzzle, digits, layout int, schema string) string {
	puzzle := p.String()
	sol, cls := puzzleTables(puzzle)
	raw, clsRaw := rawNames(puzzle)
	return migrations.SolutionsView(schema+raw, blocksTable(puzzle), cls, p.Len(), digits, layout, readable(p)) +
		migrations.ReadableViews(schema+sol, raw, schema+cls, clsRaw)
}

// packedView is the SQL that makes the view SQL users read of a puzzle
// stored as its classes only, classes_<p> over classes_<p>_raw, schema
// "main." or "".
func packedView(p canon.Puzzle, schema string) (string, error) {
	puzzle := p.String()
	form, err := packedFormOf(p)
	if err != nil {
		return "", err
	}
	_, cls := puzzleTables(puzzle)
	_, clsRaw := rawNames(puzzle)
	orbits := ""
	if form.queens {
		orbits = orbitsTable(puzzle)
	}
	return migrations.PackedClassesView(schema+cls, clsRaw, propsTable(puzzle), orbits, form.perBlock, form.size, packedFormText(form.cells), readable(p)), nil
}

// dropStaging is the SQL that drops a puzzle's staging tables, including
// the one-row-per-solution staging table of a build begun by a solcat
// before solution blocks.
func dropStaging(puzzle string) string {
	sol, cls := puzzleTables(puzzle)
	var ddl string
	for _, name := range []string{sol, blocksTable(puzzle), blockIndexTable(puzzle), cls, propsTable(puzzle), orbitsTable(puzzle), classIndexTable(puzzle), classChecksTable(puzzle)} {
		ddl += "DROP TABLE IF EXISTS " + name + stagingSuffix + ";"
	}
	return ddl
}

// Forget drops whatever the catalog holds of puzzle but its record and
// tables, which the next record replaces: an unfinished build, stored or
// counted, and a shard's mark.
func (c *Catalog) Forget(ctx context.Context, puzzle string) error {
	if err := c.Work().Abandon(ctx, puzzle); err != nil {
		return err
	}
	if err := c.Work().ClearUnits(ctx, puzzle); err != nil {
		return err
	}
	_, err := c.db.ExecContext(ctx, "DELETE FROM shards WHERE puzzle = ?", puzzle)
	return err
}

// Abandon drops a saved unfinished build of puzzle, if there is one.
func (w *Work) Abandon(ctx context.Context, puzzle string) error {
	c := w.c
	_, err := c.db.ExecContext(ctx, "DELETE FROM builds WHERE puzzle = ?;"+dropStaging(puzzle), puzzle)
	return err
}

func insertRecord(ctx context.Context, tx *sql.Tx, r Record) error {
	rec := rowOf(r)
	_, err := tx.ExecContext(ctx, `INSERT INTO puzzles (name, kind, n, storage, solutions, classes,
		orbit1, orbit2, orbit4, orbit8, known_solutions, known_classes, verified, search_nodes,
		workers, build_seconds, built_at, solver_version, content_hash, seal)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rec.Name, rec.Kind, rec.N, rec.Storage, rec.Solutions, rec.Classes,
		rec.Orbit1, rec.Orbit2, rec.Orbit4, rec.Orbit8, rec.KnownSolutions, rec.KnownClasses, rec.Verified,
		rec.SearchNodes, rec.Workers, rec.BuildSeconds, rec.BuiltAt, rec.SolverVersion, rec.ContentHash, sealOfRecord(rec))
	if err != nil {
		return fmt.Errorf("cannot record %s: %w", rec.Name, err)
	}
	return nil
}

// table buffers rows and inserts them with one prepared multi-row statement
// per full batch, in the transaction of the unit in flight.
type table struct {
	w       *unitWriter
	insert  string
	columns int
	batch   int // rows per statement
	args    []any
	full    *sql.Stmt // prepared in the unit's transaction
}

// newTable queues rows for insert (INSERT INTO t (a, b) VALUES), batch to
// a statement (the writer's batch if 0); the writer flushes its tables in
// the order they were made.
func (u *unitWriter) newTable(insert string, columns, batch int) *table {
	if batch == 0 {
		batch = u.batch
	}
	t := &table{w: u, insert: insert, columns: columns, batch: batch}
	u.tables = append(u.tables, t)
	return t
}

func (t *table) add(values ...any) error {
	t.args = append(t.args, values...)
	if len(t.args) < t.batch*t.columns {
		return nil
	}
	if t.full == nil {
		stmt, err := t.w.tx.PrepareContext(t.w.ctx, t.statement(t.batch))
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
