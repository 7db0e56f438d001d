package catalog

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"solcat/migrations"
)

// defaultBatch is how many rows one INSERT statement carries. With this
// driver a multi-row INSERT is several times faster than one Exec per row.
const defaultBatch = 256

// Writer writes one puzzle in units. Rows go to staging tables and are
// committed every plan.UnitRows rows together with the builds row that
// records how far the build got, so a build killed at any moment loses at
// most the unit in flight and resumes from there. Until Commit, the puzzle's
// previous content (if any) stays in place and readable; Commit swaps the
// staging tables in and records the puzzle in one transaction.
type Writer struct {
	db         *sqlx.DB
	file       string // the catalog file, whose disk Fault asks about
	tx         *sqlx.Tx
	ctx        context.Context
	name       string
	plan       BuildPlan
	blocks     blockTable // where the solutions go, in blocks of perBlock
	perBlock   int64
	maxClass   int64 // the largest class ID that fits the blocks' digits
	classTable string
	propsTable string     // classes-only builds: the classes with properties
	orbitTable string     // classes-only queens builds: the classes with fewer than 8 members
	block      []byte     // classes-only builds: the forms of the block being filled
	form       packedForm // classes-only builds: how forms are packed
	members    int64      // classes-only builds: the members of the classes added so far
	batch      int
	solutions  *table
	classes    *table
	props      *table
	orbits     *table
	hash       *ContentHash
	checkpoint *checkpointer

	// The block of solutions being filled: it is queued when full and
	// hashed then, so a unit commit saves whole blocks only.
	blockFirst     int64
	blockCells     []byte
	blockSyms      []byte
	blockClassSyms []int64

	classesDone, solutionsDone int64  // committed, by this run or an earlier one
	resumedRows                int64  // rows an earlier run had committed
	discarded                  string // why a saved build could not be resumed
	lastClass, seenSolutions   int64  // how far the caller's stream has come
	pending                    int64  // rows queued since the last unit commit
	units                      int    // committed by this run
	blockSolutions             int64  // solutions in the blocks queued by this run
	maxSolutionID              int64  // in the saved staging table, for a shard's check in SetFirstID
	resumedSolutions           int64  // in the saved staging table
	firstID                    int64  // the first solution's ID: 1, or a shard's
}

// Layout names how a build is cut into units and by which solver: saved
// work with another layout is not resumed, and shards with other layouts
// are not merged. It is stored as its text (String), which ParseLayout
// reads back: the solver, how it cuts the work, and the shard that a
// build of one shard makes, as in "solcat-2, 4096 rows per unit, solution
// blocks, stored by first row shard 2/4".
type Layout struct {
	Solver string // the solver's version: "solcat-2"
	Cut    string // how it cuts the work, in its words: "4096 rows per unit, solution blocks"
	Shard  int    // the shard of a split build that the build makes (1-based), or 0
	Of     int    // the shards of that split, or 0
}

func (l Layout) String() string {
	text := l.Solver
	if l.Solver != "" && l.Cut != "" {
		text += ", "
	}
	text += l.Cut
	if l.Of > 0 {
		text += " shard " + strconv.Itoa(l.Shard) + "/" + strconv.Itoa(l.Of)
	}
	return text
}

// ParseLayout reads a stored layout. A text that String does not write
// (an older solcat's, a damaged row) is a Layout whose Cut is that text,
// so that every stored text reads back as itself.
func ParseLayout(text string) Layout {
	var l Layout
	rest := text
	if body, shard, ok := strings.Cut(text, " shard "); ok {
		i, of, _ := strings.Cut(shard, "/")
		l.Shard, _ = strconv.Atoi(i)
		l.Of, _ = strconv.Atoi(of)
		if l.Shard < 1 || l.Shard > l.Of {
			l.Shard, l.Of = 0, 0
		}
		rest = body
	}
	l.Solver, l.Cut, _ = strings.Cut(rest, ", ")
	if l.String() != text {
		return Layout{Cut: text}
	}
	return l
}

// Scan reads a layout from its column.
func (l *Layout) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*l = ParseLayout(v)
	case []byte:
		*l = ParseLayout(string(v))
	default:
		return fmt.Errorf("a layout is text, not %T", src)
	}
	return nil
}

// Value stores a layout as its text.
func (l Layout) Value() (driver.Value, error) { return l.String(), nil }

// BuildPlan says how a build is cut into units.
type BuildPlan struct {
	Layout    Layout // a saved build with another layout starts over
	UnitRows  int64  // rows (classes and solutions) per committed unit
	RowsTotal int64  // rows expected in all, for the percentage others see
	Shard     bool   // a shard of a split build: its solution IDs start at SetFirstID's, and it ends with CommitShard
	CellBytes int    // the length of one solution's cells
	Classes   int64  // how many classes to expect: it sets the width of the stored class IDs
	// ClassesOnly stores classes and no solutions (storage 'classes'):
	// canonical forms come packed (canon.Pack25, canon.PackQueens) and are
	// stored a block to a row (magic:5: block k holds classes 127(k-1)+1 to
	// 127k); properties go to a table of their own, and so do queens
	// classes with fewer than 8 members. Units end at block boundaries.
	// With this driver a row costs about a microsecond to write and a few
	// hundred nanoseconds to read, whatever its size, so one row per class
	// would make hundreds of millions of classes slow to build and to scan.
	ClassesOnly bool
}

// Building is the progress of an unfinished build, as the builds row has it.
type Building struct {
	Puzzle        string `db:"puzzle"`
	Layout        Layout `db:"layout"`
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
	if has, err := hasTable(ctx, c.db, "builds"); err != nil || !has {
		return b, false, err // a catalog from before resumable builds
	}
	err = c.db.GetContext(ctx, &b, `SELECT puzzle, layout, classes_done, solutions_done, rows_total, started_at, updated_at FROM builds WHERE puzzle = ?`, puzzle)
	if errors.Is(err, sql.ErrNoRows) {
		return b, false, nil
	}
	return b, err == nil, err
}

// Builds lists the unfinished builds.
func (c *Catalog) Builds(ctx context.Context) ([]Building, error) {
	if has, err := hasTable(ctx, c.db, "builds"); err != nil || !has {
		return nil, err
	}
	var out []Building
	err := c.db.SelectContext(ctx, &out, `SELECT puzzle, classes_done, solutions_done, rows_total, started_at, updated_at FROM builds ORDER BY puzzle`)
	return out, err
}

// stagingSuffix marks the tables of a build in progress.
const stagingSuffix = "_building"

// Begin starts or resumes writing puzzle. Rows go out batch at a time
// (defaultBatch if batch < 1). A saved unfinished build with the same
// layout is resumed: the caller streams every row again and the writer
// skips those already committed. One that does not match its record is
// started over (Discarded says why).
func (c *Catalog) Begin(ctx context.Context, puzzle string, plan BuildPlan, batch int) (*Writer, error) {
	if batch < 1 {
		batch = defaultBatch
	}
	plan.UnitRows = max(plan.UnitRows, 1)
	w := &Writer{db: c.db, file: c.file, ctx: ctx, name: puzzle, plan: plan, batch: batch, firstID: 1}
	_, w.classTable = puzzleTables(puzzle)
	w.classTable += stagingSuffix
	if plan.ClassesOnly {
		form, err := packedFormOf(puzzle)
		if err != nil {
			return nil, err
		}
		w.form = form
		w.block = make([]byte, 0, form.perBlock*form.size)
		if form.queens {
			w.orbitTable = orbitsTable(puzzle) + stagingSuffix
		}
	} else {
		if plan.CellBytes < 1 {
			return nil, fmt.Errorf("%s: a build plan needs the length of a solution's cells (this is a bug, please report it)", puzzle)
		}
		w.blocks = puzzleBlocks(puzzle, plan.CellBytes, plan.Classes)
		w.blocks.Table += stagingSuffix
		w.perBlock = int64(solutionsPerBlock(plan.CellBytes, w.blocks.Digits))
		w.maxClass = (pow10(w.blocks.Digits) - 8) / 8
	}
	w.propsTable = propsTable(puzzle) + stagingSuffix
	if err := w.start(); err != nil {
		return nil, err
	}
	w.checkpoint = c.checkpoint
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
		Layout        Layout `db:"layout"`
		ClassesDone   int64  `db:"classes_done"`
		SolutionsDone int64  `db:"solutions_done"`
		HashState     []byte `db:"hash_state"`
	}
	err = tx.GetContext(w.ctx, &saved, `SELECT layout, classes_done, solutions_done, hash_state FROM builds WHERE puzzle = ?`, w.name)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err == nil && saved.Layout == w.plan.Layout {
		var classes, solutions, maxID, lacking, lastOrbit int64
		q := "SELECT coalesce(max(id), 0) FROM " + w.classTable
		if w.plan.ClassesOnly {
			q = fmt.Sprintf("SELECT count(*) * %d FROM %s", w.form.perBlock, w.classTable) // units end at block boundaries
		}
		err := tx.QueryRowContext(w.ctx, q).Scan(&classes)
		if err == nil && !w.plan.ClassesOnly {
			solutions, _, maxID, err = w.blocks.extent(w.ctx, tx)
		}
		if err == nil && w.orbitTable != "" {
			// The members the saved classes lack, below 8 each.
			err = tx.QueryRowContext(w.ctx, "SELECT coalesce(sum(8 - orbit), 0), coalesce(max(id), 0) FROM "+w.orbitTable).Scan(&lacking, &lastOrbit)
		}
		// A shard's solution IDs start further on: SetFirstID checks them.
		if err == nil && (classes != saved.ClassesDone || solutions != saved.SolutionsDone || (maxID != solutions && !w.plan.Shard) || lastOrbit > classes) {
			err = fmt.Errorf("it has %d classes and %d solutions, its record says %d and %d", classes, solutions, saved.ClassesDone, saved.SolutionsDone)
		}
		if err == nil {
			w.hash, err = resumeContentHash(saved.HashState)
		}
		if err == nil {
			w.maxSolutionID = maxID
			w.classesDone, w.solutionsDone = saved.ClassesDone, saved.SolutionsDone
			w.members = 8*classes - lacking
			w.resumedSolutions = solutions
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
	ddl := dropStaging(w.name)
	if w.plan.ClassesOnly {
		ddl += migrations.ClassOnlyTables(w.classTable, w.propsTable, w.orbitTable, w.form.perBlock, w.form.size)
	} else {
		ddl += migrations.PuzzleTables(w.blocks.Table, w.classTable, readable(w.name))
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
	w.solutions = &table{w: w, insert: "INSERT INTO " + w.blocks.Table + " (first_id, cells, class_syms) VALUES ", columns: 3, batch: blockBatch}
	w.classes = &table{w: w, insert: "INSERT INTO " + w.classTable + " (id, canonical, orbit, props) VALUES ", columns: 4}
	if w.plan.ClassesOnly {
		w.classes = &table{w: w, insert: "INSERT INTO " + w.classTable + " (block, forms) VALUES ", columns: 2}
		w.props = &table{w: w, insert: "INSERT INTO " + w.propsTable + " (id, props) VALUES ", columns: 2}
		w.orbits = &table{w: w, insert: "INSERT INTO " + w.orbitTable + " (id, orbit, first_member) VALUES ", columns: 3}
	}
	return nil
}

// Fault is Catalog.Fault for an error the writer met.
func (w *Writer) Fault(err error) error { return fault(w.file, err) }

// Discarded says why a saved build was started over, or is empty.
func (w *Writer) Discarded() string { return w.discarded }

// Resumed is how many rows (classes and solutions) an earlier run had committed.
func (w *Writer) Resumed() int64 { return w.resumedRows }

// Saved is how many rows are committed so far, and how many are expected.
func (w *Writer) Saved() (done, total int64) {
	return w.classesDone + w.solutionsDone, w.plan.RowsTotal
}

// AddClass queues one class row; props is the class's property bit set.
// Classes come in ID order; those already committed are skipped. A
// classes-only build takes the packed form.
func (w *Writer) AddClass(id int64, canonical []byte, orbit int, props uint32) error {
	w.lastClass = id
	if id <= w.classesDone {
		return nil
	}
	w.hash.AddClass(canonical, orbit)
	if w.plan.ClassesOnly {
		if len(canonical) != w.form.size || orbit != 8 && (w.orbitTable == "" || orbit != 1 && orbit != 2 && orbit != 4) {
			return fmt.Errorf("%s: class %d has a form of %d bytes and orbit %d, the build stores forms of %d bytes (this is a bug, please report it)", w.name, id, len(canonical), orbit, w.form.size)
		}
		if props != 0 {
			if err := w.props.add(id, int64(props)); err != nil {
				return err
			}
		}
		if orbit != 8 {
			if err := w.orbits.add(id, orbit, w.members+1); err != nil {
				return err
			}
		}
		w.members += int64(orbit)
		w.block = append(w.block, canonical...)
		if id%int64(w.form.perBlock) != 0 {
			return nil // a unit ends with a full block
		}
		if err := w.addBlock(id); err != nil {
			return err
		}
		return w.counted(int64(w.form.perBlock))
	}
	if err := w.classes.add(id, canonical, orbit, int64(props)); err != nil {
		return err
	}
	return w.counted(1)
}

// blockBatch is how many block rows one INSERT statement carries.
const blockBatch = 16

// catchUpUnits is how many units a writer commits between waits for the
// checkpoints to catch up: the log holds at most about that many units.
const catchUpUnits = 4

// AddSolution adds the next solution; solutions must come in ID order, 1,
// 2, 3, ... (a shard's from SetFirstID's), and those already committed
// are skipped. The cells are copied. A block is queued when it is full:
// it ends at an ID that is a multiple of the block size.
func (w *Writer) AddSolution(cells []byte, classID int64, symmetry int) error {
	w.seenSolutions++
	if w.seenSolutions <= w.solutionsDone {
		return nil
	}
	if len(cells) != w.plan.CellBytes || classID < 1 || classID > w.maxClass {
		return fmt.Errorf("%s: solution %d has %d cells and class %d, the build expects %d cells and at most %d classes (this is a bug, please report it)",
			w.name, w.seenSolutions, len(cells), classID, w.plan.CellBytes, w.plan.Classes)
	}
	id := w.firstID + w.seenSolutions - 1
	if len(w.blockClassSyms) == 0 {
		w.blockFirst = id
		w.blockCells = make([]byte, 0, w.perBlock*int64(w.plan.CellBytes))
		w.blockSyms = make([]byte, 0, w.perBlock*int64(w.blocks.Digits))
	}
	classSym := classID<<3 | int64(symmetry)
	w.blockCells = append(w.blockCells, cells...)
	w.blockSyms = appendDigits(w.blockSyms, classSym, w.blocks.Digits)
	w.blockClassSyms = append(w.blockClassSyms, classSym)
	if id%w.perBlock != 0 {
		return nil
	}
	return w.closeBlock()
}

// closeBlock hashes and queues the block being filled, if any. The table
// keeps its slices until the statement runs; the next block gets new ones.
func (w *Writer) closeBlock() error {
	n := len(w.blockClassSyms)
	if n == 0 {
		return nil
	}
	size := w.plan.CellBytes
	for k, classSym := range w.blockClassSyms {
		w.hash.AddSolution(w.blockCells[k*size:(k+1)*size], classSym>>3, int(classSym&7))
	}
	w.blockClassSyms = w.blockClassSyms[:0]
	w.blockSolutions += int64(n)
	if err := w.solutions.add(w.blockFirst, w.blockCells, string(w.blockSyms)); err != nil {
		return err
	}
	return w.counted(int64(n))
}

// addBlock queues the block that ends with class id; the table keeps the
// slice until its statement runs, so the next block gets a new one.
func (w *Writer) addBlock(id int64) error {
	if len(w.block) == 0 {
		return nil
	}
	err := w.classes.add(w.form.blockOf(id), w.block)
	w.block = make([]byte, 0, w.form.perBlock*w.form.size)
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
	// The solutions of a block still being filled are not saved yet.
	classes, solutions := max(w.classesDone, w.lastClass), max(w.solutionsDone, w.seenSolutions-int64(len(w.blockClassSyms)))
	res, err := w.tx.ExecContext(w.ctx, `UPDATE builds SET classes_done = ?, solutions_done = ?, hash_state = ?, updated_at = ?
		WHERE puzzle = ? AND classes_done = ? AND solutions_done = ?`,
		classes, solutions, state, time.Now().UTC().Format(time.RFC3339), w.name, w.classesDone, w.solutionsDone)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("the saved build of %s changed under this one: another process wrote it", w.name)
	}
	if err := w.tx.Commit(); err != nil {
		return err
	}
	if w.units++; w.units%catchUpUnits == 0 {
		w.checkpoint.catchUp()
	} else {
		w.checkpoint.committed()
	}
	w.classesDone, w.solutionsDone, w.pending = classes, solutions, 0
	return w.begin()
}

func (w *Writer) flush() error {
	if err := w.classes.flush(); err != nil {
		return err
	}
	for _, t := range []*table{w.props, w.orbits} {
		if t != nil && len(t.args) > 0 {
			if err := t.flush(); err != nil {
				return err
			}
		}
	}
	return w.solutions.flush()
}

// SavedClasses calls fn, in ID order, with each class an earlier run of a
// classes-only build committed: its packed form and its orbit size. A
// resumed build reads them to count again what it records about them.
func (w *Writer) SavedClasses(fn func(id int64, packed []byte, orbit int) error) error {
	orbits := map[int64]int{}
	if w.orbitTable != "" {
		rows, err := w.tx.QueryContext(w.ctx, "SELECT id, orbit FROM "+w.orbitTable+" WHERE id <= ?", w.classesDone)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			var orbit int
			if err := rows.Scan(&id, &orbit); err != nil {
				rows.Close()
				return err
			}
			orbits[id] = orbit
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	rows, err := w.tx.QueryContext(w.ctx, "SELECT block, forms FROM "+w.classTable+" ORDER BY block")
	if err != nil {
		return err
	}
	defer rows.Close()
	size, per := w.form.size, int64(w.form.perBlock)
	for rows.Next() {
		var block int64
		var forms sql.RawBytes
		if err := rows.Scan(&block, &forms); err != nil {
			return err
		}
		if len(forms) != size*w.form.perBlock {
			return fmt.Errorf("%s: saved class block %d has %d bytes, not %d", w.name, block, len(forms), size*w.form.perBlock)
		}
		for i := 0; i < len(forms); i += size {
			id := (block-1)*per + int64(i/size) + 1
			orbit, ok := orbits[id]
			if !ok {
				orbit = 8
			}
			if err := fn(id, forms[i:i+size], orbit); err != nil {
				return err
			}
		}
	}
	return rows.Err()
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
	defer func() { w.tx.Rollback() }() // the transaction open at the end: a last unit may commit first
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
		per := int64(w.form.perBlock)
		blocks := (added + per - 1) / per
		if rows != blocks || maxID != blocks || bytes != added*int64(w.form.size) || rec.Classes != added || rec.Solutions != w.members {
			return fmt.Errorf("%s: %d classes and %d solutions recorded, %d classes of %d members added, %d blocks with highest number %d and %d bytes; the build is not finished (this is a bug, please report it)",
				w.name, rec.Classes, rec.Solutions, added, w.members, rows, maxID, bytes)
		}
	} else if err := w.finishBlocks(); err != nil {
		return err
	} else if rows, _, maxID, err = w.storedSolutions(); err != nil {
		return err
	} else if added := max(w.solutionsDone, w.seenSolutions); rows != added || maxID != added || rec.Solutions != added {
		return fmt.Errorf("%s: %d solutions recorded, %d added, %d stored with highest ID %d; the build is not finished (this is a bug, please report it)", w.name, rec.Solutions, added, rows, maxID)
	}
	if err := swapIn(w.ctx, w.tx.Tx, w.name, w.plan.CellBytes, w.blocks.Digits); err != nil {
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
	return w.end(w.tx.Commit())
}

// end asks for a checkpoint once the writer's last transaction is over.
func (w *Writer) end(err error) error {
	w.checkpoint.committed()
	w.checkpoint = nil
	return err
}

// finishBlocks queues the last, partly filled block and writes what is queued.
func (w *Writer) finishBlocks() error {
	if err := w.closeBlock(); err != nil {
		return err
	}
	return w.flush()
}

// storedSolutions counts the solutions in the staging blocks (those an
// earlier run saved, as start found them, and those added since) and reads
// the lowest and highest ID; reading every block would take seconds.
func (w *Writer) storedSolutions() (count, minID, maxID int64, err error) {
	err = w.tx.QueryRowContext(w.ctx, fmt.Sprintf("SELECT coalesce((SELECT min(first_id) FROM %[1]s), 0), coalesce((SELECT first_id + length(cells) / %[2]d - 1 FROM %[1]s ORDER BY first_id DESC LIMIT 1), 0)",
		w.blocks.Table, w.plan.CellBytes)).Scan(&minID, &maxID)
	return w.resumedSolutions + w.blockSolutions, minID, maxID, err
}

// ErrShardMismatch means a saved shard does not fit the split asked for:
// it must be built again from the start.
var ErrShardMismatch = errors.New("the saved shard cannot be resumed")

// SetFirstID tells a shard's writer the ID of its first solution; call it
// before AddSolution. The shard's first block starts there.
func (w *Writer) SetFirstID(id int64) error {
	w.firstID = id
	if w.solutionsDone > 0 && w.maxSolutionID != id-1+w.solutionsDone {
		return fmt.Errorf("%w: the saved shard of %s ends at solution %d, but %d solutions from %d would end at %d",
			ErrShardMismatch, w.name, w.maxSolutionID, w.solutionsDone, id, id-1+w.solutionsDone)
	}
	return nil
}

// CommitShard finishes a shard of a split build: its tables take the
// puzzle's names in this catalog, and the shard is recorded as done, for
// 'solcat merge'; the puzzle itself is not recorded here.
func (w *Writer) CommitShard(shard Shard) error {
	defer func() { w.tx.Rollback() }() // the transaction open at the end: a last unit may commit first
	if err := w.finishBlocks(); err != nil {
		return err
	}
	rows, minID, maxID, err := w.storedSolutions()
	if err != nil {
		return err
	}
	added := max(w.solutionsDone, w.seenSolutions)
	if rows != added || (rows > 0 && (minID != w.firstID || maxID != w.firstID+rows-1)) {
		return fmt.Errorf("%s: the shard has %d solutions with IDs %d to %d, %d added from %d; it is not finished (this is a bug, please report it)", w.name, rows, minID, maxID, added, w.firstID)
	}
	if err := swapIn(w.ctx, w.tx.Tx, w.name, w.plan.CellBytes, w.blocks.Digits); err != nil {
		return err
	}
	shard.Puzzle, shard.Done = w.name, true
	if _, err := w.tx.ExecContext(w.ctx, `INSERT OR REPLACE INTO shards (puzzle, shard, of, layout, units, done, nodes, seconds) VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
		shard.Puzzle, shard.Shard, shard.Of, shard.Layout, shard.Units, shard.Nodes, shard.Seconds); err != nil {
		return err
	}
	return w.end(w.tx.Commit())
}

// swapIn puts a puzzle's staging tables in place of its tables inside tx,
// dropping the old tables, the puzzle's record and its builds row, and
// shows staged solution blocks through the solutions view (cellBytes and
// digits as they were written). Every name is qualified with main: merge
// attaches shards that have the same table names, and SQLite would look
// an unqualified name up in them too.
func swapIn(ctx context.Context, tx *sql.Tx, puzzle string, cellBytes, digits int) error {
	sol, cls := puzzleTables(puzzle)
	blocks := blocksTable(puzzle)
	// The view goes first: renaming a table fails while a view names a
	// table that is gone.
	dropSol, err := dropSolutions(ctx, tx, "main", sol)
	if err != nil {
		return err
	}
	// A shard's mark goes too: the file now holds the puzzle (CommitShard
	// marks it again).
	stmts := "DELETE FROM main.puzzles WHERE name = ?; DELETE FROM main.builds WHERE puzzle = ?; DELETE FROM main.shards WHERE puzzle = ?;" + dropSol
	stagedBlocks := false
	for _, name := range []string{blocks, cls, propsTable(puzzle), orbitsTable(puzzle)} {
		stmts += "DROP TABLE IF EXISTS main." + name + ";"
		var staged int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name = ?", name+stagingSuffix).Scan(&staged); err != nil {
			return err
		}
		if staged > 0 {
			stmts += "ALTER TABLE main." + name + stagingSuffix + " RENAME TO " + name + ";"
			stagedBlocks = stagedBlocks || name == blocks
		}
	}
	if stagedBlocks {
		stmts += migrations.SolutionsView("main."+sol, blocks, cls, cellBytes, digits, readable(puzzle))
	}
	_, err = tx.ExecContext(ctx, stmts, puzzle, puzzle, puzzle)
	return err
}

// dropSolutions is the SQL that drops a puzzle's solutions: a view over
// its blocks, or the table of a puzzle stored before blocks.
func dropSolutions(ctx context.Context, tx rowQueryer, schema, name string) (string, error) {
	var kind string
	err := tx.QueryRowContext(ctx, "SELECT type FROM "+schema+".sqlite_master WHERE name = ? AND type IN ('table', 'view')", name).Scan(&kind)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return "DROP " + strings.ToUpper(kind) + " " + schema + "." + name + ";", err
}

// dropStaging is the SQL that drops a puzzle's staging tables, including
// the one-row-per-solution staging table of a build begun by a solcat
// before solution blocks.
func dropStaging(puzzle string) string {
	sol, cls := puzzleTables(puzzle)
	var ddl string
	for _, name := range []string{sol, blocksTable(puzzle), cls, propsTable(puzzle), orbitsTable(puzzle)} {
		ddl += "DROP TABLE IF EXISTS " + name + stagingSuffix + ";"
	}
	return ddl
}

// Forget drops whatever the catalog holds of puzzle but its record and
// tables, which the next record replaces: an unfinished build, stored or
// counted, and a shard's mark.
func (c *Catalog) Forget(ctx context.Context, puzzle string) error {
	if err := c.Abandon(ctx, puzzle); err != nil {
		return err
	}
	if err := c.ClearUnits(ctx, puzzle); err != nil {
		return err
	}
	_, err := c.db.ExecContext(ctx, "DELETE FROM shards WHERE puzzle = ?", puzzle)
	return err
}

// Abandon drops a saved unfinished build of puzzle, if there is one.
func (c *Catalog) Abandon(ctx context.Context, puzzle string) error {
	_, err := c.db.ExecContext(ctx, "DELETE FROM builds WHERE puzzle = ?;"+dropStaging(puzzle), puzzle)
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
func (w *Writer) Rollback() {
	w.tx.Rollback()
	w.end(nil)
}

// table buffers rows and inserts them with one prepared multi-row statement
// per full batch.
type table struct {
	w       *Writer
	insert  string
	columns int
	batch   int // rows per statement; the writer's batch if 0
	args    []any
	full    *sql.Stmt
}

func (t *table) add(values ...any) error {
	t.args = append(t.args, values...)
	if t.batch == 0 {
		t.batch = t.w.batch
	}
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
