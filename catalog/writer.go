package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"solcat/migrations"
)

// DefaultBatch is how many rows one INSERT statement carries. With this
// driver a multi-row INSERT is several times faster than one Exec per row.
const DefaultBatch = 256

// Writer writes one puzzle inside one transaction: until Commit, the
// catalog keeps what it had before (the previous build of the puzzle, or
// nothing), so an interrupted build loses nothing that was committed.
type Writer struct {
	tx         *sql.Tx
	ctx        context.Context
	name       string
	solTable   string
	classTable string
	batch      int
	solutions  *table
	classes    *table
	added      int64  // solution rows queued so far
	arena      []byte // copies of the cells of the batch being queued
	hash       *ContentHash
}

// Begin starts writing puzzle, replacing any previous content of it when
// the writer commits. Rows go out batch at a time (DefaultBatch if batch < 1).
func (c *Catalog) Begin(ctx context.Context, puzzle string, batch int) (*Writer, error) {
	if batch < 1 {
		batch = DefaultBatch
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	w := &Writer{tx: tx, ctx: ctx, name: puzzle, batch: batch, hash: NewContentHash()}
	w.solTable, w.classTable = Tables(puzzle)
	if _, err := tx.ExecContext(ctx, `DELETE FROM puzzles WHERE name = ?`, puzzle); err != nil {
		tx.Rollback()
		return nil, err
	}
	ddl := "DROP TABLE IF EXISTS " + w.solTable + "; DROP TABLE IF EXISTS " + w.classTable + ";" +
		migrations.PuzzleTables(w.solTable, w.classTable)
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("cannot create tables for %s: %w", puzzle, err)
	}
	// Solution rows take the next rowid, which is the solution ID because
	// they are added in ID order to an empty table (Commit checks it).
	w.solutions = &table{w: w, insert: "INSERT INTO " + w.solTable + " (cells, class_sym) VALUES ", columns: 2}
	w.classes = &table{w: w, insert: "INSERT INTO " + w.classTable + " (id, canonical, orbit, props) VALUES ", columns: 4}
	return w, nil
}

// AddClass queues one class row; props is the class's property bit set.
func (w *Writer) AddClass(id int64, canonical []byte, orbit int, props uint32) error {
	w.hash.AddClass(canonical, orbit)
	return w.classes.add(id, canonical, orbit, int64(props))
}

// AddSolution queues the next solution row; solutions must come in ID
// order, 1, 2, 3, ... The cells are copied.
func (w *Writer) AddSolution(cells []byte, classID int64, symmetry int) error {
	w.added++
	w.hash.AddSolution(cells, classID, symmetry)
	// Copies go to an arena that holds one batch, so a big build does not
	// allocate once per row; the batch is sent before the arena is reused.
	if len(w.arena)+len(cells) > cap(w.arena) {
		w.arena = make([]byte, 0, w.batch*len(cells))
	}
	start := len(w.arena)
	w.arena = append(w.arena, cells...)
	return w.solutions.add(w.arena[start:len(w.arena):len(w.arena)], classID<<3|int64(symmetry))
}

// Commit writes what is queued, records the puzzle and
// makes it all visible at once.
func (w *Writer) Commit(rec Record) error {
	defer w.tx.Rollback()
	if err := w.classes.flush(); err != nil {
		return err
	}
	if err := w.solutions.flush(); err != nil {
		return err
	}
	var rows, maxID int64
	if err := w.tx.QueryRowContext(w.ctx, "SELECT count(*), coalesce(max(id), 0) FROM "+w.solTable).Scan(&rows, &maxID); err != nil {
		return err
	}
	if rows != w.added || maxID != w.added || rec.Solutions != w.added {
		return fmt.Errorf("%s: %d solutions recorded, %d added, %d rows with highest ID %d; nothing was stored", w.name, rec.Solutions, w.added, rows, maxID)
	}
	rec.Name = w.name
	rec.ContentHash = w.hash.Sum()
	if err := insertRecord(w.ctx, w.tx, rec); err != nil {
		return err
	}
	return w.tx.Commit()
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

// Rollback abandons the writer's work; the catalog keeps its old content.
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
