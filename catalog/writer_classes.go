package catalog

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/jmoiron/sqlx"

	"solcat/canon"
	"solcat/migrations"
)

// ClassWriter writes a puzzle as its classes alone (storage 'classes'):
// canonical forms come packed (canon.Pack25, canon.PackQueens) and are
// stored a block to a row (magic:5: block k holds classes 127(k-1)+1 to
// 127k); properties go to a table of their own, and so do queens classes
// with fewer than 8 members. Units end at block boundaries. With this
// driver a row costs about a microsecond to write and a few hundred
// nanoseconds to read, whatever its size, so one row per class would make
// hundreds of millions of classes slow to build and to scan.
type ClassWriter struct {
	unitWriter
	form       packedForm // how forms are packed
	classTable string     // the staging tables: class blocks,
	propsTable string     // the classes with properties,
	orbitTable string     // and (queens) the classes with fewer than 8 members
	block      []byte     // the forms of the block being filled
	members    int64      // of the classes added so far
	classes    *table
	props      *table
	orbits     *table // nil for magic:5, whose classes all have 8 members
	index      *table // the class index
	indexTable string
	group      classGroup // the class index row being filled
	synBytes   int
	cells      []byte // a form unpacked
}

// BeginClasses starts or resumes writing p as its classes alone. A saved
// unfinished build with the same layout is resumed: the caller streams
// every class again and the writer skips those already committed. One
// that does not match its record is started over (Discarded says why).
func (c *Catalog) BeginClasses(ctx context.Context, p canon.Puzzle, plan BuildPlan) (*ClassWriter, error) {
	return c.beginClasses(ctx, p, plan, defaultBatch)
}

// beginClasses is BeginClasses with batch rows to an INSERT statement.
func (c *Catalog) beginClasses(ctx context.Context, p canon.Puzzle, plan BuildPlan, batch int) (*ClassWriter, error) {
	form, err := packedFormOf(p)
	if err != nil {
		return nil, err
	}
	w := &ClassWriter{unitWriter: c.newUnitWriter(ctx, p, plan, batch), form: form}
	w.block = make([]byte, 0, form.perBlock*form.size)
	_, w.classTable = puzzleTables(w.name)
	w.classTable += stagingSuffix
	w.propsTable = propsTable(w.name) + stagingSuffix
	if form.queens {
		w.orbitTable = orbitsTable(w.name) + stagingSuffix
	}
	w.indexTable = classIndexTable(w.name) + stagingSuffix
	w.synBytes = (form.cells*classSynopsisBits(p) + 7) / 8
	w.cells = make([]byte, form.cells)
	saved, err := w.start(w.staged, migrations.ClassOnlyTables(w.classTable, w.indexTable, w.propsTable, w.orbitTable, form.perBlock, form.size))
	if err != nil {
		return nil, err
	}
	w.members = 8*saved.classes - saved.lacking
	w.classes = w.newTable("INSERT INTO "+w.classTable+" (block, forms) VALUES ", 2, 0)
	w.props = w.newTable("INSERT INTO "+w.propsTable+" (id, props) VALUES ", 2, 0)
	if w.orbitTable != "" {
		w.orbits = w.newTable("INSERT INTO "+w.orbitTable+" (id, orbit, first_member) VALUES ", 3, 0)
	}
	// A group row is written when its last block is, and, part filled,
	// with every unit: the later row replaces the earlier.
	w.index = w.newTable("INSERT OR REPLACE INTO "+w.indexTable+" (grp, synopsis, checks, checksum) VALUES ", 4, 0)
	w.beforeCommit = w.queueGroup
	if saved.classes > 0 {
		if err := w.resumeGroup(w.form.blockOf(saved.classes) + 1); err != nil {
			return nil, err
		}
	}
	if err := w.begin(); err != nil {
		return nil, err
	}
	return w, nil
}

// resumeGroup reads back the saved row of the group that block k (the
// next to be written) is in, if it began before k.
func (w *ClassWriter) resumeGroup(k int64) error {
	g := (k-1)/classGroupBlocks + 1
	w.group = classGroup{group: g, syn: make([]byte, w.synBytes)}
	if (k-1)%classGroupBlocks == 0 {
		return nil
	}
	var syn, checks []byte
	if err := w.db.QueryRowContext(w.ctx, "SELECT synopsis, checks FROM "+w.indexTable+" WHERE grp = ?", g).Scan(&syn, &checks); err != nil {
		return fmt.Errorf("%s: the saved class index lacks group %d: %w", w.name, g, err)
	}
	if len(syn) != w.synBytes || int64(len(checks)) != 4*((k-1)%classGroupBlocks) {
		return fmt.Errorf("%s: the saved class index row of group %d does not fit the saved blocks", w.name, g)
	}
	w.group.syn, w.group.checks = syn, checks
	return nil
}

// indexBlock adds block k to the class index row being filled, and queues
// the row when the group is full.
func (w *ClassWriter) indexBlock(k int64, forms []byte) error {
	g := (k-1)/classGroupBlocks + 1
	if w.group.group != g {
		w.group = classGroup{group: g, syn: make([]byte, w.synBytes)}
	}
	w.group.addForms(w.form, classSynopsisBits(w.p), forms, w.cells)
	w.group.checks = binary.LittleEndian.AppendUint32(w.group.checks, blockCheck(k, forms))
	if k%classGroupBlocks == 0 {
		return w.queueGroup()
	}
	return nil
}

// queueGroup queues the class index row being filled, if it has blocks.
// The table keeps its bytes until the statement runs: they are copied.
func (w *ClassWriter) queueGroup() error {
	g := w.group
	if len(g.checks) == 0 {
		return nil
	}
	syn, checks := slices.Clone(g.syn), slices.Clone(g.checks)
	return w.index.add(g.group, syn, checks, int64(rowCheck(g.group, syn, checks)))
}

// staged counts what a saved build's staging tables hold.
func (w *ClassWriter) staged(tx *sqlx.Tx) (r stagedRows, err error) {
	// Units end at block boundaries.
	err = tx.QueryRowContext(w.ctx, fmt.Sprintf("SELECT count(*) * %d FROM %s", w.form.perBlock, w.classTable)).Scan(&r.classes)
	if err == nil && w.orbitTable != "" {
		// The members the saved classes lack, below 8 each.
		err = tx.QueryRowContext(w.ctx, "SELECT coalesce(sum(8 - orbit), 0), coalesce(max(id), 0) FROM "+w.orbitTable).Scan(&r.lacking, &r.lastOrbit)
	}
	return r, err
}

// AddClass queues one class: its packed form, its orbit size and its
// property bit set. Classes come in ID order; those already committed are
// skipped.
func (w *ClassWriter) AddClass(id int64, packed []byte, orbit int, props uint32) error {
	if !w.newClass(id, packed, orbit) {
		return nil
	}
	if len(packed) != w.form.size || orbit != 8 && (w.orbits == nil || orbit != 1 && orbit != 2 && orbit != 4) {
		return fmt.Errorf("%s: class %d has a form of %d bytes and orbit %d, the build stores forms of %d bytes (this is a bug, please report it)", w.name, id, len(packed), orbit, w.form.size)
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
	w.block = append(w.block, packed...)
	if id%int64(w.form.perBlock) != 0 {
		return nil // a unit ends with a full block
	}
	if err := w.addBlock(id); err != nil {
		return err
	}
	return w.counted(int64(w.form.perBlock))
}

// addBlock queues the block that ends with class id; the table keeps the
// slice until its statement runs, so the next block gets a new one.
func (w *ClassWriter) addBlock(id int64) error {
	if len(w.block) == 0 {
		return nil
	}
	k := w.form.blockOf(id)
	if err := w.classes.add(k, w.block); err != nil {
		return err
	}
	err := w.indexBlock(k, w.block)
	w.block = make([]byte, 0, w.form.perBlock*w.form.size)
	return err
}

// SavedClasses calls fn, in ID order, with each class an earlier run
// committed: its packed form and its orbit size. A resumed build reads
// them to count again what it records about them.
func (w *ClassWriter) SavedClasses(fn func(id int64, packed []byte, orbit int) error) error {
	orbits := map[int64]int{}
	if w.orbitTable != "" {
		var rows []classOrbit
		if err := w.tx.SelectContext(w.ctx, &rows, "SELECT id, orbit FROM "+w.orbitTable+" WHERE id <= ?", w.classesDone); err != nil {
			return err
		}
		for _, r := range rows {
			orbits[r.ID] = r.Orbit
		}
	}
	// The blocks are streamed: a build saved far along holds millions.
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
// by their property bit sets.
func (w *ClassWriter) PropsCounts(ctx context.Context) (map[int64]int64, error) {
	if err := w.flush(); err != nil {
		return nil, err
	}
	var rows []struct {
		Props int64 `db:"props"`
		N     int64 `db:"n"`
	}
	if err := w.tx.SelectContext(ctx, &rows, "SELECT props, count(*) AS n FROM "+w.propsTable+" GROUP BY props"); err != nil {
		return nil, err
	}
	out := make(map[int64]int64, len(rows))
	for _, r := range rows {
		out[r.Props] = r.N
	}
	return out, nil
}

// Commit writes what is queued, puts the new tables in place of the
// puzzle's old ones, records the puzzle with its breakdown and ends the
// build, all in one transaction.
func (w *ClassWriter) Commit(rec Record, breakdown ...Breakdown) error {
	defer func() { w.tx.Rollback() }() // the transaction open at the end: a last unit may commit first
	if err := w.flush(); err != nil {
		return err
	}
	added := max(w.classesDone, w.lastClass)
	if err := w.addBlock(added); err != nil {
		return err
	}
	if err := w.queueGroup(); err != nil {
		return err
	}
	if err := w.flush(); err != nil {
		return err
	}
	var rows, maxID, bytes int64
	if err := w.tx.QueryRowContext(w.ctx, "SELECT count(*), coalesce(max(block), 0), coalesce(sum(length(forms)), 0) FROM "+w.classTable).Scan(&rows, &maxID, &bytes); err != nil {
		return err
	}
	per := int64(w.form.perBlock)
	blocks := (added + per - 1) / per
	if rows != blocks || maxID != blocks || bytes != added*int64(w.form.size) || rec.Classes != added || rec.Solutions != w.members {
		return fmt.Errorf("%s: %d classes and %d solutions recorded, %d classes of %d members added, %d blocks with highest number %d and %d bytes; the build is not finished (this is a bug, please report it)",
			w.name, rec.Classes, rec.Solutions, added, w.members, rows, maxID, bytes)
	}
	return w.commit(rec, breakdown, 0)
}
