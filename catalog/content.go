package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"solcat/canon"
)

// OldFormatError is a puzzle stored by an older solcat in a format this
// one no longer reads (one row per solution, before solution blocks).
type OldFormatError struct{ Puzzle string }

func (e *OldFormatError) Error() string {
	return e.Puzzle + " is stored in an older format (one row per solution), which this solcat no longer reads"
}

// ErrNotStored means a puzzle is recorded by its counts only: it has no
// solutions or classes to read.
var ErrNotStored = errors.New("stored as counts only")

// Content reads one stored puzzle's content, its classes and solutions.
// It hides how the puzzle is stored: every solution in blocks with a
// table of classes (StorageSolutions), or the classes alone as packed
// canonical forms in blocks, with tables of the few that have properties
// and (queens) of the few with fewer than 8 members (StorageClasses).
type Content struct {
	c          *Catalog
	p          canon.Puzzle
	Record     Record
	blocks     blockTable // StorageSolutions: the solution blocks
	classes    string     // the classes table (classTable)
	props      string     // StorageClasses: the properties table
	orbits     string     // StorageClasses: the orbits table (queens)
	form       packedForm // StorageClasses: how forms are packed
	propsOnce  sync.Once
	propsList  []classProps // StorageClasses: the properties table, in ID order
	propsErr   error
	orbitsOnce sync.Once
	orbitsList memberNumbering // StorageClasses: the orbits table, in ID order
	orbitsErr  error
	throughSQL bool // read nothing in place from the file's pages (ReadThroughSQL)
}

// ClassRow is one stored class. Form is its canonical form's cells; it is
// valid only during the callback that hands it over.
type ClassRow struct {
	ID    int64
	Form  []byte
	Orbit int
	Props uint32 // the stored property bit set
}

// ClassFilter selects classes by what their rows store.
type ClassFilter struct {
	Orbits []int  // the orbit sizes kept; nil keeps any (an empty list none)
	Props  uint32 // every bit set here must be set in the class's
}

func (f ClassFilter) keeps(orbit int, props uint32) bool {
	return (f.Orbits == nil || slices.Contains(f.Orbits, orbit)) && props&f.Props == f.Props
}

// Content opens the tables of stored puzzle p, whose record is rec.
func (c *Catalog) Content(ctx context.Context, p canon.Puzzle, rec Record) (*Content, error) {
	s := &Content{c: c, p: p, Record: rec}
	s.props, s.orbits = propsTable(rec.Name), orbitsTable(rec.Name)
	var err error
	if s.classes, err = classTable(ctx, c.db, "main", rec); err != nil {
		return nil, DamageError(c.path, err)
	}
	switch rec.Storage {
	case StorageSolutions:
		has, err := hasBlocks(ctx, c.db, rec.Name)
		if err != nil {
			return nil, DamageError(c.path, err)
		}
		if !has {
			return nil, &OldFormatError{Puzzle: rec.Name}
		}
		s.blocks = puzzleBlocks(p, rec.Classes)
		if s.blocks.Columnar, err = hasSynopsis(ctx, c.db, "main", s.blocks.Table); err != nil {
			return nil, DamageError(c.path, err)
		}
	case StorageClasses:
		form, err := packedFormOf(p)
		if err != nil {
			return nil, err
		}
		s.form = form
	default:
		return nil, fmt.Errorf("%s is %w", rec.Name, ErrNotStored)
	}
	return s, nil
}

// ClassesOnly reports whether the puzzle is stored as its classes alone.
func (s *Content) ClassesOnly() bool { return s.Record.Storage == StorageClasses }

// Solutions calls fn for the solutions with IDs from..to (inclusive), in
// ID order, reading whole blocks. A damaged block stops it with an error.
func (s *Content) Solutions(ctx context.Context, from, to int64, fn func(StoredSolution) error) error {
	return s.blocks.Scan(ctx, s.c.db, from, to, fn)
}

// SolutionsReporting is Solutions that hands damage (a block that is not
// whole solutions, a class entry that is not a number) to damaged and goes
// on with the next.
func (s *Content) SolutionsReporting(ctx context.Context, from, to int64, fn func(StoredSolution) error, damaged func(error)) error {
	return s.blocks.ScanReporting(ctx, s.c.db, from, to, func(sol StoredSolution) error {
		if _, _, err := sol.Class(); err != nil {
			damaged(err)
			return nil
		}
		return fn(sol)
	}, damaged)
}

// Cells returns the cells of one solution.
func (s *Content) Cells(ctx context.Context, id int64) ([]byte, error) {
	cells, err := s.blocks.Cells(ctx, s.c.db, id)
	if err == nil && cells == nil {
		err = fmt.Errorf("%s: no block holds solution %d", s.Record.Name, id)
	}
	return cells, err
}

// Classes calls fn, in ID order, for the classes with IDs lo to hi that
// the filter keeps.
func (s *Content) Classes(ctx context.Context, lo, hi int64, f ClassFilter, fn func(ClassRow) error) error {
	if s.ClassesOnly() {
		return s.packedClasses(ctx, lo, hi, f, fn)
	}
	conds, args := "id BETWEEN ? AND ?", []any{lo, hi}
	if f.Orbits != nil {
		conds += " AND orbit IN (-1" + strings.Repeat(", ?", len(f.Orbits)) + ")"
		for _, o := range f.Orbits {
			args = append(args, o)
		}
	}
	if f.Props != 0 {
		conds += " AND props & ? = ?"
		args = append(args, int64(f.Props), int64(f.Props))
	}
	return s.classRows(ctx, "SELECT id, canonical, orbit, props FROM "+s.classes+" WHERE "+conds+" ORDER BY id", args, fn)
}

// ClassesByID calls fn, in ID order, for the classes with the given IDs
// (sorted); IDs no class has are skipped.
func (s *Content) ClassesByID(ctx context.Context, ids []int64, fn func(ClassRow) error) error {
	if s.ClassesOnly() {
		for _, id := range ids {
			if err := s.packedClasses(ctx, id, id, ClassFilter{}, fn); err != nil {
				return err
			}
		}
		return nil
	}
	// 500 to a statement: one query a class costs more than the scan that
	// found them when there are many.
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 500)]
		ids = ids[len(batch):]
		args := make([]any, len(batch))
		for i, id := range batch {
			args[i] = id
		}
		q := "SELECT id, canonical, orbit, props FROM " + s.classes + " WHERE id IN (" + strings.TrimSuffix(strings.Repeat("?,", len(batch)), ",") + ") ORDER BY id"
		if err := s.classRows(ctx, q, args, fn); err != nil {
			return err
		}
	}
	return nil
}

// Class returns one class; ok is false if the puzzle has no such class.
func (s *Content) Class(ctx context.Context, id int64) (c ClassRow, ok bool, err error) {
	err = s.Classes(ctx, id, id, ClassFilter{}, func(r ClassRow) error {
		c, ok = r, true
		c.Form = append([]byte(nil), r.Form...)
		return nil
	})
	return c, ok, err
}

// HasProps reports whether any class has a property in mask.
func (s *Content) HasProps(ctx context.Context, mask uint32) (bool, error) {
	table := s.classes
	if s.ClassesOnly() {
		table = s.props
	}
	var n int
	err := s.c.db.GetContext(ctx, &n, "SELECT EXISTS (SELECT 1 FROM "+table+" WHERE props & ? != 0)", int64(mask))
	return n > 0, err
}

func (s *Content) classRows(ctx context.Context, q string, args []any, fn func(ClassRow) error) error {
	rows, err := s.c.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var c ClassRow
	var form sql.RawBytes // no copy: valid until the next row, as Form promises
	for rows.Next() {
		if err := rows.Scan(&c.ID, &form, &c.Orbit, &c.Props); err != nil {
			return err
		}
		c.Form = form
		if err := fn(c); err != nil {
			return err
		}
	}
	return rows.Err()
}

// classProps is one row of a classes-only puzzle's properties table.
type classProps struct {
	ID    int64  `db:"id"`
	Props uint32 `db:"props"`
}

// propsTable reads a classes-only puzzle's properties table once: a few
// tens of thousands of rows, in ID order.
func (s *Content) propsTable(ctx context.Context) ([]classProps, error) {
	s.propsOnce.Do(func() {
		s.propsErr = s.c.db.SelectContext(ctx, &s.propsList, "SELECT id, props FROM "+s.props+" ORDER BY id")
	})
	return s.propsList, s.propsErr
}

// FewClasses reports how many classes a scan with filter f reads in a
// puzzle stored as its classes when f asks for properties or for orbits
// other than 8 (the few classes listed in tables of their own); ok is false
// when the scan reads every class.
func (s *Content) FewClasses(ctx context.Context, f ClassFilter) (n int64, ok bool, err error) {
	if !s.ClassesOnly() {
		return 0, false, nil
	}
	ids, ok, err := s.fewClasses(ctx, f, 1, s.Record.Classes)
	return int64(len(ids)), ok, err
}

// fewClasses lists, in ID order, the classes lo to hi that filter f asks
// for when it asks for properties or orbits other than 8: few classes have
// them, and tables of their own list them. ok is false for any other f.
func (s *Content) fewClasses(ctx context.Context, f ClassFilter, lo, hi int64) (ids []int64, ok bool, err error) {
	switch {
	case f.Props != 0:
		props, err := s.propsTable(ctx)
		if err != nil {
			return nil, false, err
		}
		for i := sort.Search(len(props), func(i int) bool { return props[i].ID >= lo }); i < len(props) && props[i].ID <= hi; i++ {
			if props[i].Props&f.Props == f.Props {
				ids = append(ids, props[i].ID)
			}
		}
		return ids, true, nil
	case f.Orbits != nil && !slices.Contains(f.Orbits, 8):
		orbits, err := s.numbering(ctx)
		if err != nil {
			return nil, false, err
		}
		for i := sort.Search(len(orbits.rows), func(i int) bool { return orbits.rows[i].ID >= lo }); i < len(orbits.rows) && orbits.rows[i].ID <= hi; i++ {
			if slices.Contains(f.Orbits, orbits.rows[i].Orbit) {
				ids = append(ids, orbits.rows[i].ID)
			}
		}
		return ids, true, nil
	}
	return nil, false, nil
}

// packedClasses reads the classes of a classes-only puzzle: blocks of
// packed forms, with the few classes that have properties or fewer than 8
// members in tables of their own.
func (s *Content) packedClasses(ctx context.Context, lo, hi int64, f ClassFilter, fn func(ClassRow) error) error {
	hi = min(hi, s.Record.Classes)
	props, err := s.propsTable(ctx)
	if err != nil {
		return err
	}
	orbits, err := s.numbering(ctx)
	if err != nil {
		return err
	}
	// props and orbits are in ID order, and so are the classes: walk all
	// three together.
	next := sort.Search(len(props), func(i int) bool { return props[i].ID >= lo })
	nextOrbit := sort.Search(len(orbits.rows), func(i int) bool { return orbits.rows[i].ID >= lo })
	form, per := s.form, int64(s.form.perBlock)
	cells := make([]byte, form.cells)
	c := ClassRow{Form: cells}
	emit := func(block int64, forms []byte) error {
		if err := s.checkFormBlock(block, forms); err != nil {
			return err
		}
		first := (block-1)*per + 1
		for i := max(lo-first, 0) * int64(form.size); i < int64(len(forms)); i += int64(form.size) {
			c.ID = first + i/int64(form.size)
			if c.ID > hi {
				break
			}
			for next < len(props) && props[next].ID < c.ID {
				next++
			}
			c.Props = 0
			if next < len(props) && props[next].ID == c.ID {
				c.Props = props[next].Props
			}
			for nextOrbit < len(orbits.rows) && orbits.rows[nextOrbit].ID < c.ID {
				nextOrbit++
			}
			c.Orbit = 8
			if nextOrbit < len(orbits.rows) && orbits.rows[nextOrbit].ID == c.ID {
				c.Orbit = orbits.rows[nextOrbit].Orbit
			}
			if !f.keeps(c.Orbit, c.Props) {
				continue
			}
			form.unpack(forms[i:i+int64(form.size)], cells)
			if err := fn(c); err != nil {
				return err
			}
		}
		return nil
	}
	// Few classes have properties, or fewer than 8 members: a filter that
	// asks for them reads only their blocks.
	few, ok, err := s.fewClasses(ctx, f, lo, hi)
	if err != nil {
		return err
	}
	if !ok {
		return s.PackedForms(ctx, lo, hi, func(first int64, forms []byte) error { return emit(form.blockOf(first), forms) })
	}
	var last int64 // the block read last
	for _, id := range few {
		block := form.blockOf(id)
		if block == last {
			continue
		}
		last = block
		var forms []byte
		if err := s.c.db.QueryRowContext(ctx, "SELECT forms FROM "+s.classes+" WHERE block = ?", block).Scan(&forms); err != nil {
			return fmt.Errorf("reading class block %d of %s: %w", block, s.Record.Name, err)
		}
		start := (block-1)*per + 1
		next = sort.Search(len(props), func(k int) bool { return props[k].ID >= start })
		nextOrbit = sort.Search(len(orbits.rows), func(k int) bool { return orbits.rows[k].ID >= start })
		if err := emit(block, forms); err != nil {
			return err
		}
	}
	return nil
}

// CheckClassBlocks checks, for a classes-only puzzle, what a scan of its
// classes cannot see: blocks past the last class, or bytes that are not
// whole forms. (QuickCheck sees the properties table's ends and the
// orbits table's numbering of the members.) It returns the problems it
// finds.
func (s *Content) CheckClassBlocks(ctx context.Context) ([]string, error) {
	var blocks, bytes int64
	if err := s.c.db.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(length(forms)), 0) FROM "+s.classes).Scan(&blocks, &bytes); err != nil {
		return nil, err
	}
	var problems []string
	classes, size, per := s.Record.Classes, int64(s.form.size), int64(s.form.perBlock)
	if want := (classes + per - 1) / per; blocks != want || bytes != size*classes {
		problems = append(problems, fmt.Sprintf("%d blocks of %d bytes stored, %d blocks of %d bytes expected for %d classes", blocks, bytes, want, size*classes, classes))
	}
	return problems, nil
}

// Breakdown returns the recorded counts of a puzzle by stat, in value
// order; nil if the build recorded none.
func (c *Catalog) Breakdown(ctx context.Context, puzzle string, stat Stat) ([]Breakdown, error) {
	if has, err := hasTable(ctx, c.db, "count_breakdown"); err != nil || !has {
		return nil, err
	}
	var rows []Breakdown
	err := c.db.SelectContext(ctx, &rows, `SELECT stat, value, solutions, classes FROM count_breakdown WHERE puzzle = ? AND stat = ? ORDER BY value`, puzzle, stat.String())
	return rows, err
}

// Breakdowns returns every count recorded for a puzzle by any stat, in stat
// and value order.
func (c *Catalog) Breakdowns(ctx context.Context, puzzle string) ([]Breakdown, error) {
	if has, err := hasTable(ctx, c.db, "count_breakdown"); err != nil || !has {
		return nil, err
	}
	var rows []Breakdown
	err := c.db.SelectContext(ctx, &rows, `SELECT stat, value, solutions, classes FROM count_breakdown WHERE puzzle = ? ORDER BY stat, value`, puzzle)
	return rows, err
}

// Blocks calls fn, in ID order, for each solution block that holds a
// solution with an ID from..to: the cells a block hands over lie column by
// column in either layout, so a scan reads the cells it tests as runs of
// bytes. The caller picks the solutions in range.
func (s *Content) Blocks(ctx context.Context, from, to int64, fn func(*Block) error) error {
	return s.pagesThenSQL(ctx, func(conn *sql.Conn) (int64, error) { return s.pageBlocks(ctx, conn, from, to, fn) },
		func(conn *sql.Conn, next int64) error { return s.blocks.Blocks(ctx, conn, next, to, fn) })
}

// BlockColumns is Blocks reading only the given cells of each block, and
// the class entries if classes is set: a count that tests them needs no
// more.
func (s *Content) BlockColumns(ctx context.Context, from, to int64, cells []int, classes bool, fn func(*Block) error) error {
	return s.pagesThenSQL(ctx, func(conn *sql.Conn) (int64, error) { return s.pageBlocks(ctx, conn, from, to, fn) },
		func(conn *sql.Conn, next int64) error {
			return s.blocks.BlockColumns(ctx, conn, next, to, cells, classes, fn)
		})
}

// pagesThenSQL reads rows in place where it can (inPlace, which returns
// errNotPlain with the row to go on from where it cannot) and the rest by
// bySQL, from that row; both on one connection, so the file does not
// change between the two.
func (s *Content) pagesThenSQL(ctx context.Context, inPlace func(conn *sql.Conn) (next int64, err error), bySQL func(conn *sql.Conn, next int64) error) error {
	conn, err := s.c.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	next, err := inPlace(conn)
	if !errors.Is(err, errNotPlain) {
		return err
	}
	return bySQL(conn, next)
}

// pageBlocks is Blocks read from the mapped file's pages (pages.go), for
// a reader of an immutable catalog with column blocks: each block's bytes
// are handed over in place. It returns errNotPlain, with the ID the scan
// should go on from through SQL, where it cannot read on: a catalog read
// through its log, row-major blocks, or a page it does not read. The
// caller holds conn, and goes on through it.
func (s *Content) pageBlocks(ctx context.Context, conn *sql.Conn, from, to int64, fn func(*Block) error) (next int64, err error) {
	if !s.blocks.Columnar || s.throughSQL {
		return from, errNotPlain
	}
	pf, root, err := s.c.mappedTable(ctx, conn, s.blocks.Table)
	if err != nil {
		return from, err
	}
	defer pf.close()
	b := s.blocks
	blk := &Block{t: &b}
	next = from
	var blocks int
	cols := make([][]byte, 4) // first_id (the rowid, so NULL), cells, class_syms, synopsis
	_, err = pf.rows(root, from-maxBlockSolutions, to, cols, func(first int64) error {
		if blocks++; blocks%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		cells, syms, syn := cols[1], cols[2], cols[3]
		n, ok := b.solutionsIn(len(cells), len(syms), len(syn))
		if cols[0] != nil || !ok {
			return errNotPlain // SQL reads it again and says how it is damaged
		}
		if first+int64(n) <= from {
			return nil
		}
		blk.First, blk.N, blk.cols, blk.syms, blk.syn = first, n, cells, syms, syn
		if err := fn(blk); err != nil {
			return err
		}
		next = first + int64(n)
		return nil
	})
	return next, err
}

// ReadThroughSQL makes s read every block through SQLite, none in place
// from the file's pages.
func (s *Content) ReadThroughSQL() { s.throughSQL = true }

// ColumnBlocks reports whether the puzzle's solution blocks are column
// blocks with a synopsis; false for a puzzle stored by a solcat before them.
func (s *Content) ColumnBlocks() bool { return s.blocks.Columnar }
