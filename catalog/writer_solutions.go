package catalog

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"solcat/canon"
	"solcat/catalog/pagefile"
	"solcat/migrations"
)

// SolutionWriter writes a puzzle's classes, one row each, and every
// solution, in blocks: a block holds consecutive solutions and ends at an
// ID that is a multiple of the block size. A shard of a split build (a
// layout with a shard) writes the solutions from SetFirstID's and ends
// with CommitShard.
type SolutionWriter struct {
	unitWriter
	blocks     blockTable // the staging blocks, perBlock solutions to a block
	perBlock   int64
	maxClass   int64 // the largest class ID that fits the blocks' digits
	classTable string
	expected   int64 // the classes the plan expects
	classes    *table
	solutions  *table
	index      *table
	checks     *table
	checkTable string

	// The block of solutions being filled: it is queued when full and
	// hashed then, so a unit commit saves whole blocks only.
	blockFirst     int64
	blockCells     []byte
	blockSyms      []byte
	blockClassSyms []int64

	// The block index row being filled: its blocks' entries. It is queued
	// when full, and before every unit commit, so that a unit's blocks and
	// their index rows are committed together.
	groupFirst   int64
	groupEntries []byte
	// The class checks being filled, from class checksFirst on.
	checksFirst int64
	classSums   []byte
	scratch     []byte

	seenSolutions    int64 // how far the caller's stream has come
	blockSolutions   int64 // solutions in the blocks queued by this run
	maxSolutionID    int64 // in the saved staging table, for a shard's check in SetFirstID
	resumedSolutions int64 // in the saved staging table
	firstID          int64 // the first solution's ID: 1, or a shard's
}

// BeginSolutions starts or resumes writing p's classes and solutions;
// classes is how many classes to expect: it sets the width of the stored
// class IDs. A saved unfinished build with the same layout is resumed:
// the caller streams every row again and the writer skips those already
// committed. One that does not match its record is started over
// (Discarded says why).
func (c *Catalog) BeginSolutions(ctx context.Context, p canon.Puzzle, plan BuildPlan, classes int64) (*SolutionWriter, error) {
	return c.beginSolutions(ctx, p, plan, classes, defaultBatch)
}

// beginSolutions is BeginSolutions with batch rows to an INSERT statement.
func (c *Catalog) beginSolutions(ctx context.Context, p canon.Puzzle, plan BuildPlan, classes int64, batch int) (*SolutionWriter, error) {
	w := &SolutionWriter{unitWriter: c.newUnitWriter(ctx, p, plan, batch), expected: classes, firstID: 1}
	_, w.classTable = puzzleTables(w.name)
	w.classTable += stagingSuffix
	w.blocks = puzzleBlocks(p, classes)
	w.blocks.Table += stagingSuffix
	w.blocks.Index += stagingSuffix
	w.perBlock = int64(w.blocks.perBlock())
	w.maxClass = (int64(1)<<(6*w.blocks.Digits) - 8) / 8
	w.checkTable = classChecksTable(w.name) + stagingSuffix
	saved, err := w.start(w.staged, migrations.PuzzleTables(w.blocks.Table, w.blocks.Index, w.classTable, w.checkTable))
	if err != nil {
		return nil, err
	}
	w.maxSolutionID, w.resumedSolutions = saved.maxID, saved.solutions
	w.classes = w.newTable("INSERT INTO "+w.classTable+" (id, canonical, orbit, props) VALUES ", 4, 0)
	w.solutions = w.newTable("INSERT INTO "+w.blocks.Table+" (first_id, cells, class_syms) VALUES ", 3, blockBatch)
	w.index = w.newTable("INSERT INTO "+w.blocks.Index+" (first_id, entries, checksum) VALUES ", 3, blockBatch)
	w.checks = w.newTable("INSERT INTO "+w.checkTable+" (first_id, checks, checksum) VALUES ", 3, blockBatch)
	w.beforeCommit = w.closeRuns
	if err := w.begin(); err != nil {
		return nil, err
	}
	return w, nil
}

// staged counts what a saved build's staging tables hold. The solutions
// are counted in the block index, whose rows are committed with their
// blocks and take a few percent of their pages, and the highest ID is read
// off the last block: reading every block, at every start of a resumed
// build, would take seconds.
func (w *SolutionWriter) staged(tx *sqlx.Tx) (r stagedRows, err error) {
	err = tx.QueryRowContext(w.ctx, fmt.Sprintf("SELECT coalesce((SELECT max(id) FROM %s), 0), coalesce((SELECT first_id + length(cells) / %d - 1 FROM %s ORDER BY first_id DESC LIMIT 1), 0)",
		w.classTable, w.blocks.CellBytes, w.blocks.Table)).Scan(&r.classes, &r.maxID)
	if err != nil {
		return r, err
	}
	rows, err := tx.QueryContext(w.ctx, "SELECT first_id, entries, checksum FROM "+w.blocks.Index+" ORDER BY first_id")
	if err != nil {
		return r, err
	}
	defer rows.Close()
	var end int64 // the ID after the last solution indexed
	for rows.Next() {
		var first, sum int64
		var entries sql.RawBytes
		if err := rows.Scan(&first, &entries, &sum); err != nil {
			return r, err
		}
		if end != 0 && first != end {
			return r, fmt.Errorf("its block index goes from solution %d to %d", end-1, first)
		}
		next, err := w.blocks.checkGroup(first, entries, sum)
		if err != nil {
			return r, err
		}
		r.solutions += next - first
		end = next
	}
	return r, rows.Err()
}

// AddClass queues one class row; props is the class's property bit set.
// Classes come in ID order; those already committed are skipped.
func (w *SolutionWriter) AddClass(id int64, canonical []byte, orbit int, props uint32) error {
	if !w.newClass(id, canonical, orbit) {
		return nil
	}
	if err := w.classes.add(id, canonical, orbit, int64(props)); err != nil {
		return err
	}
	if len(w.classSums) == 0 {
		w.checksFirst = id
	}
	var sum uint32
	sum, w.scratch = classCheck(id, canonical, int64(orbit), int64(props), w.scratch)
	w.classSums = binary.LittleEndian.AppendUint32(w.classSums, sum)
	if len(w.classSums) == 4*classChecksPerRow {
		if err := w.closeChecks(); err != nil {
			return err
		}
	}
	return w.counted(1)
}

// closeChecks queues the class checks being filled, if any.
func (w *SolutionWriter) closeChecks() error {
	if len(w.classSums) == 0 {
		return nil
	}
	sums := w.classSums
	w.classSums = nil
	return w.checks.add(w.checksFirst, sums, int64(rowCheck(w.checksFirst, sums)))
}

// closeRuns queues the rows being filled that a unit commits with its
// blocks and classes: the block index row and the class checks.
func (w *SolutionWriter) closeRuns() error {
	if err := w.closeGroup(); err != nil {
		return err
	}
	return w.closeChecks()
}

// AddSolution adds the next solution; solutions must come in ID order, 1,
// 2, 3, ... (a shard's from SetFirstID's), and those already committed
// are skipped. The cells are copied. A block is queued when it is full:
// it ends at an ID that is a multiple of the block size.
func (w *SolutionWriter) AddSolution(cells []byte, classID int64, symmetry int) error {
	w.seenSolutions++
	if w.seenSolutions <= w.solutionsDone {
		return nil
	}
	size := w.blocks.CellBytes
	if len(cells) != size || classID < 1 || classID > w.maxClass {
		return fmt.Errorf("%s: solution %d has %d cells and class %d, the build expects %d cells and at most %d classes (this is a bug, please report it)",
			w.name, w.seenSolutions, len(cells), classID, size, w.expected)
	}
	id := w.firstID + w.seenSolutions - 1
	if len(w.blockClassSyms) == 0 {
		w.blockFirst = id
		w.blockCells = make([]byte, 0, w.perBlock*int64(size))
		w.blockSyms = make([]byte, 0, w.perBlock*int64(w.blocks.Digits))
	}
	classSym := classID<<3 | int64(symmetry)
	w.blockCells = append(w.blockCells, cells...)
	w.blockSyms = appendDigits64(w.blockSyms, classSym, w.blocks.Digits)
	w.blockClassSyms = append(w.blockClassSyms, classSym)
	if id%w.perBlock != 0 {
		return nil
	}
	return w.closeBlock()
}

// closeBlock hashes and queues the block being filled, if any. The table
// keeps its slices until the statement runs; the next block gets new ones.
func (w *SolutionWriter) closeBlock() error {
	n := len(w.blockClassSyms)
	if n == 0 {
		return nil
	}
	size := w.blocks.CellBytes
	for k, classSym := range w.blockClassSyms {
		w.hash.AddSolution(w.blockCells[k*size:(k+1)*size], classSym>>3, int(classSym&7))
	}
	w.blockClassSyms = w.blockClassSyms[:0]
	w.blockSolutions += int64(n)
	w.queuedSolutions = w.seenSolutions
	cols := make([]byte, len(w.blockCells))
	transpose(cols, w.blockCells, n, size)
	if err := w.solutions.add(w.blockFirst, cols, string(w.blockSyms)); err != nil {
		return err
	}
	if len(w.groupEntries) == 0 {
		w.groupFirst = w.blockFirst
	}
	w.groupEntries = w.blocks.appendIndexEntry(w.groupEntries, w.blockFirst, cols, w.blockSyms, n)
	if len(w.groupEntries) >= w.blocks.indexPerRow()*w.blocks.indexEntryBytes() {
		if err := w.closeGroup(); err != nil {
			return err
		}
	}
	return w.counted(int64(n))
}

// closeGroup queues the block index row being filled, if any. The table
// keeps its bytes until the statement runs; the next row gets new ones.
func (w *SolutionWriter) closeGroup() error {
	if len(w.groupEntries) == 0 {
		return nil
	}
	entries := w.groupEntries
	w.groupEntries = nil
	return w.index.add(w.groupFirst, entries, int64(rowCheck(w.groupFirst, entries)))
}

// finishBlocks queues the last, partly filled block and writes what is queued.
func (w *SolutionWriter) finishBlocks() error {
	if err := w.closeBlock(); err != nil {
		return err
	}
	if err := w.closeRuns(); err != nil {
		return err
	}
	return w.flush()
}

// stagedSolutions counts the solutions in the staging blocks (those an
// earlier run saved, as start found them, and those added since) and reads
// the lowest and highest ID; reading every block would take seconds.
func (w *SolutionWriter) stagedSolutions() (count, minID, maxID int64, err error) {
	err = w.tx.QueryRowContext(w.ctx, fmt.Sprintf("SELECT coalesce((SELECT min(first_id) FROM %[1]s), 0), coalesce((SELECT first_id + length(cells) / %[2]d - 1 FROM %[1]s ORDER BY first_id DESC LIMIT 1), 0)",
		w.blocks.Table, w.blocks.CellBytes)).Scan(&minID, &maxID)
	return w.resumedSolutions + w.blockSolutions, minID, maxID, err
}

// Commit writes what is queued, puts the new tables in place of the
// puzzle's old ones, records the puzzle with its breakdown (counts by cell
// and property, in place of any recorded before) and ends the build, all in
// one transaction.
func (w *SolutionWriter) Commit(rec Record, breakdown ...Breakdown) error {
	defer func() { w.tx.Rollback() }() // the transaction open at the end: a last unit may commit first
	if err := w.finishBlocks(); err != nil {
		return err
	}
	rows, _, maxID, err := w.stagedSolutions()
	if err != nil {
		return err
	}
	if added := max(w.solutionsDone, w.seenSolutions); rows != added || maxID != added || rec.Solutions != added {
		return fmt.Errorf("%s: %d solutions recorded, %d added, %d stored with highest ID %d; the build is not finished (this is a bug, please report it)", w.name, rec.Solutions, added, rows, maxID)
	}
	return w.commit(rec, breakdown, w.blocks.Digits)
}

// ErrShardMismatch means a saved shard does not fit the split asked for:
// it must be built again from the start.
var ErrShardMismatch = errors.New("the saved shard cannot be resumed")

// SetFirstID tells a shard's writer the ID of its first solution; call it
// before AddSolution. The shard's first block starts there.
func (w *SolutionWriter) SetFirstID(id int64) error {
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
func (w *SolutionWriter) CommitShard(shard Shard) error {
	defer func() { w.tx.Rollback() }() // the transaction open at the end: a last unit may commit first
	if err := w.finishBlocks(); err != nil {
		return err
	}
	rows, minID, maxID, err := w.stagedSolutions()
	if err != nil {
		return err
	}
	added := max(w.solutionsDone, w.seenSolutions)
	if rows != added || (rows > 0 && (minID != w.firstID || maxID != w.firstID+rows-1)) {
		return fmt.Errorf("%s: the shard has %d solutions with IDs %d to %d, %d added from %d; it is not finished (this is a bug, please report it)", w.name, rows, minID, maxID, added, w.firstID)
	}
	if err := swapIn(w.ctx, w.tx.Tx, w.p, w.blocks.Digits); err != nil {
		return err
	}
	shard.Puzzle, shard.Done = w.name, true
	if _, err := w.tx.ExecContext(w.ctx, `INSERT OR REPLACE INTO shards (puzzle, shard, of, layout, units, done, nodes, seconds) VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
		shard.Puzzle, shard.Shard, shard.Of, storedLayout(shard.Layout), shard.Units, shard.Nodes, shard.Seconds); err != nil {
		return err
	}
	return w.end(w.tx.Commit())
}

// SavedClasses gives the classes a resumed build had committed, in ID
// order (canonical forms back to back, n bytes each, and orbit sizes), so
// that its search need not find them again; none for a new build. It reads
// them from the catalog file's pages where it can (queens:17's 12 million
// in about a second), else through SQL (about a microsecond a row).
func (w *SolutionWriter) SavedClasses() (forms, orbits []byte, err error) {
	if w.classesDone == 0 {
		return nil, nil, nil
	}
	n := w.p.Len()
	forms, orbits = make([]byte, 0, int64(n)*w.classesDone), make([]byte, 0, w.classesDone)
	if forms, orbits, err = w.savedClassPages(forms, orbits); err != nil {
		return nil, nil, err
	}
	if int64(len(orbits)) == w.classesDone {
		return forms, orbits, nil
	}
	rows, err := w.tx.QueryContext(w.ctx, "SELECT canonical, orbit FROM "+w.classTable+" WHERE id > ? AND id <= ? ORDER BY id", len(orbits), w.classesDone)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var form sql.RawBytes
		var orbit int
		if err := rows.Scan(&form, &orbit); err != nil {
			return nil, nil, err
		}
		if len(form) != n {
			return nil, nil, fmt.Errorf("a saved class of %s is %d bytes, not %d", w.name, len(form), n)
		}
		forms, orbits = append(forms, form...), append(orbits, byte(orbit))
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if int64(len(orbits)) != w.classesDone {
		return nil, nil, fmt.Errorf("%d saved classes of %s, the build recorded %d", len(orbits), w.name, w.classesDone)
	}
	return forms, orbits, nil
}

// savedClassPages appends to forms and orbits the saved classes it reads
// from the file's pages, from the first on: all of them, or as many as
// precede a page the page reader does not read, or none when the file does
// not hold every committed page (a reader holds part of the log out of
// it). The log is copied in by the catalog's checkpointer, under the read
// byte as always; the unit in flight, which holds nothing yet, is begun
// again after.
func (w *SolutionWriter) savedClassPages(forms, orbits []byte) ([]byte, []byte, error) {
	w.tx.Rollback()
	if w.checkpoint.CopyAll() {
		var root, cookie, pages int64
		err := w.db.QueryRowContext(w.ctx, "SELECT (SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ?), (SELECT schema_version FROM pragma_schema_version), (SELECT page_count FROM pragma_page_count)",
			w.classTable).Scan(&root, &cookie, &pages)
		if err == nil && root > 0 && root < 1<<32 {
			forms, orbits = readClassPages(w.ctx, w.file, uint32(root), uint32(cookie), pages, w.classesDone, w.p.Len(), forms, orbits)
		}
	}
	if w.ctx.Err() != nil {
		return nil, nil, w.ctx.Err()
	}
	return forms, orbits, w.begin()
}

// readClassPages appends the forms and orbits of classes 1 to last of the
// class table at root in file, as savedClassPages reads them, if the file
// is the one SQLite has open (its schema cookie and pages): as many as
// follow each other from the first, none if the file changed meanwhile.
func readClassPages(ctx context.Context, file string, root, cookie uint32, pages, last int64, n int, forms, orbits []byte) ([]byte, []byte) {
	pf, err := pagefile.Open(file)
	if err != nil {
		return forms, orbits
	}
	defer pf.Close()
	if pf.SchemaCookie() != cookie || int64(pf.Pages()) != pages {
		return forms, orbits
	}
	start := len(orbits)
	r := &fileReader{pf: pf}
	cols := make([]pagefile.Value, 4) // the rowid alias, canonical, orbit, props
	r.pageRows(ctx, &pageBuffer{rd: pf.NewReader(scanBufferBytes)}, &tableRef{root: root}, 0, last, nil, cols, func(id int64) error {
		if id != int64(len(orbits))+1 || len(cols[1].Bytes) != n || !cols[2].IsInt {
			return pagefile.ErrNotPlain
		}
		forms, orbits = append(forms, cols[1].Bytes...), append(orbits, byte(cols[2].Int))
		return nil
	})
	if pf.Unchanged() != nil {
		return forms[:start*n], orbits[:start]
	}
	return forms, orbits
}

// LastSaved gives the cells of the last solution a resumed build had
// committed, or nil if it had committed none.
func (w *SolutionWriter) LastSaved() ([]byte, error) {
	if w.solutionsDone == 0 {
		return nil, nil
	}
	return w.blocks.Cells(w.ctx, w.tx, w.maxSolutionID)
}

// SkipSolutions passes over the first n solutions of the stream, all
// committed by an earlier run, without their being handed over.
func (w *SolutionWriter) SkipSolutions(n int64) error {
	if w.seenSolutions+n > w.solutionsDone {
		return fmt.Errorf("%s: %d solutions passed over, %d were saved (this is a bug, please report it)", w.name, w.seenSolutions+n, w.solutionsDone)
	}
	w.seenSolutions += n
	return nil
}

// EndClasses commits the classes queued, if any: every build commits when
// its last class is handed over, so that a build stopped afterwards never
// searches for classes again (and the commits fall in the same places in
// every build).
func (w *SolutionWriter) EndClasses() error {
	if w.pending == 0 {
		return nil
	}
	return w.commitUnit()
}
