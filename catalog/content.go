package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"solcat/canon"
	"solcat/catalog/catfile"
	"solcat/catalog/pagefile"
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
	c           *Catalog
	p           canon.Puzzle
	Record      Record
	blocks      blockTable // StorageSolutions: the solution blocks
	classes     string     // the classes table (classTable)
	props       string     // StorageClasses: the properties table
	orbits      string     // StorageClasses: the orbits table (queens)
	form        packedForm // StorageClasses: how forms are packed
	classIndex  string     // StorageClasses: the class index, or "" for a puzzle stored before it
	classChecks string     // StorageSolutions: the class rows' checks, or "" for a puzzle stored before them
	throughSQL  bool       // read nothing from the file's pages (ReadForChecks)
	unchecked   bool       // read nothing through the indexes, check nothing against them (ReadForChecks)
	propsOnce   sync.Once
	propsList   []classProps // StorageClasses: the properties table, in ID order
	propsErr    error
	orbitsOnce  sync.Once
	orbitsList  memberNumbering // StorageClasses: the orbits table, in ID order
	orbitsErr   error
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
		return nil, catfile.DamageError(c.path, err)
	}
	switch rec.Storage {
	case StorageSolutions:
		has, err := hasBlocks(ctx, c.db, rec.Name)
		if err != nil {
			return nil, catfile.DamageError(c.path, err)
		}
		if !has {
			return nil, &OldFormatError{Puzzle: rec.Name}
		}
		if s.blocks, err = storedBlocks(ctx, c.db, p, rec.Classes); err != nil {
			return nil, catfile.DamageError(c.path, err)
		}
		if has, err := hasTable(ctx, c.db, classChecksTable(rec.Name)); err != nil {
			return nil, catfile.DamageError(c.path, err)
		} else if has {
			s.classChecks = classChecksTable(rec.Name)
		}
	case StorageClasses:
		form, err := packedFormOf(p)
		if err != nil {
			return nil, err
		}
		s.form = form
		if has, err := hasTable(ctx, c.db, classIndexTable(rec.Name)); err != nil {
			return nil, catfile.DamageError(c.path, err)
		} else if has {
			s.classIndex = classIndexTable(rec.Name)
		}
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
	cells := make([]byte, s.blocks.CellBytes)
	_, err := s.ScanBlocks(ctx, BlockScan{Lo: from, Hi: to}, func(_ int, b *Block) error {
		for k := max(from-b.First, 0); k < int64(b.N) && b.First+k <= to; k++ {
			if err := fn(b.Solution(int(k), cells)); err != nil {
				return err
			}
		}
		return nil
	})
	return err
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
	return s.classRowsIn(ctx, lo, hi, nil, f, fn)
}

// classRowsIn reads the class rows lo to hi (with ids, only those; sorted)
// of a puzzle stored solution by solution, from the file's pages where it
// can, and hands over those f keeps.
func (s *Content) classRowsIn(ctx context.Context, lo, hi int64, ids []int64, f ClassFilter, fn func(ClassRow) error) error {
	lo, hi = max(lo, 1), min(hi, s.Record.Classes)
	if lo > hi {
		return nil
	}
	t := &tableRef{name: s.classes, columns: []string{"canonical", "orbit", "props"}}
	checks := &tableRef{name: s.classChecks, columns: []string{"checks", "checksum"}}
	r, err := s.c.openReader(ctx, s.throughSQL, t, checks)
	if err != nil {
		return err
	}
	defer r.close()
	buf := r.pageBuffer()
	cols := make([]pagefile.Value, 4)
	var c ClassRow
	var want []uint32 // the checks of the classes of the piece at hand
	var scratch []byte
	// Pieces of a million classes: their checks take 4 MB.
	const piece = 1 << 20
	for a := lo; a <= hi && err == nil; a += piece {
		b := min(hi, a+piece-1)
		var only []int64
		if ids != nil {
			for _, id := range ids {
				if id >= a && id <= b {
					only = append(only, id)
				}
			}
			if len(only) == 0 {
				continue
			}
		}
		if s.classChecks != "" && !s.unchecked {
			want = growChecks(want, int(b-a+1))
			if err = s.readClassChecks(ctx, r, buf, checks, a, b, want); err != nil {
				break
			}
		}
		expect := a // the next class a full read must meet
		err = r.rows(ctx, buf, t, a-1, b, only, cols, func(id int64) error {
			orbit, ok1 := intColumn(cols[2])
			props, ok2 := intColumn(cols[3])
			if !ok1 || !ok2 || cols[1].Null {
				return s.damaged(fmt.Sprintf("class %d is damaged: its row is not a form, an orbit and properties", id))
			}
			if s.classChecks != "" && !s.unchecked {
				var sum uint32
				sum, scratch = classCheck(id, cols[1].Bytes, orbit, props, scratch)
				switch {
				case only == nil && id != expect:
					return s.damaged(fmt.Sprintf("class %d is missing", expect))
				case sum != want[id-a]:
					return s.damaged(fmt.Sprintf("class %d does not match its checksum", id))
				}
				expect = id + 1
			}
			if !f.keeps(int(orbit), uint32(props)) {
				return nil
			}
			c.ID, c.Form, c.Orbit, c.Props = id, cols[1].Bytes, int(orbit), uint32(props)
			return fn(c)
		})
		if err == nil && s.classChecks != "" && !s.unchecked && only == nil && expect != b+1 {
			err = s.damaged(fmt.Sprintf("class %d is missing", expect))
		}
	}
	return r.finish(err)
}

func growChecks(c []uint32, n int) []uint32 {
	if cap(c) < n {
		return make([]uint32, n)
	}
	return c[:n]
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
	if len(ids) == 0 {
		return nil
	}
	return s.classRowsIn(ctx, ids[0], ids[len(ids)-1], ids, ClassFilter{}, fn)
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
	var blocks []int64
	for _, id := range few {
		if block := form.blockOf(id); len(blocks) == 0 || blocks[len(blocks)-1] != block {
			blocks = append(blocks, block)
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	_, err = s.ScanClassBlocks(ctx, ClassBlockScan{Lo: (blocks[0]-1)*per + 1, Hi: blocks[len(blocks)-1] * per, Blocks: blocks}, func(_ int, first int64, forms []byte, _ uint32) error {
		next = sort.Search(len(props), func(k int) bool { return props[k].ID >= first })
		nextOrbit = sort.Search(len(orbits.rows), func(k int) bool { return orbits.rows[k].ID >= first })
		return emit(form.blockOf(first), forms)
	})
	return err
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
	rows, err := c.breakdownRows(ctx, puzzle, "AND stat = ?", stat.String())
	for _, r := range rows {
		if r.Unsealed {
			return nil, &DamagedError{Puzzle: puzzle, Path: c.path, Problem: fmt.Sprintf("its count recorded by %s, value %d, %s", r.Stat, r.Value, unsealed)}
		}
	}
	return rows, err
}

// breakdownRows reads the recorded counts of a puzzle that meet where,
// each checked against its seal.
func (c *Catalog) breakdownRows(ctx context.Context, puzzle, where string, args ...any) ([]Breakdown, error) {
	if has, err := hasTable(ctx, c.db, "count_breakdown"); err != nil || !has {
		return nil, err
	}
	var rows []struct {
		breakdownRow
		Seal string `db:"seal"`
	}
	seal := "seal"
	if !c.sealed(ctx) {
		seal = "'' AS seal"
	}
	err := c.db.SelectContext(ctx, &rows, `SELECT stat, value, solutions, classes, `+seal+` FROM count_breakdown WHERE puzzle = ? `+where+` ORDER BY stat, value`, append([]any{puzzle}, args...)...)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	key, err := puzzleKeyOf(ctx, c.db, puzzle)
	out := make([]Breakdown, len(rows))
	for i, r := range rows {
		out[i] = r.breakdown()
		out[i].Unsealed = c.sealed(ctx) && r.Seal != sealOfBreakdown(key, out[i])
	}
	return out, err
}

// Breakdowns returns every count recorded for a puzzle by any stat, in stat
// and value order.
//
// A row that does not match its seal comes with Unsealed set.
func (h *Health) Breakdowns(ctx context.Context, puzzle string) ([]Breakdown, error) {
	c := h.c
	return c.breakdownRows(ctx, puzzle, "")
}

// ReadForChecks makes s read as verify does: everything through SQLite,
// nothing from the file's pages, which checks SQLite's reading against the
// page reader's; and the blocks and classes as they are, without their
// indexes and checksums, so that verify checks the indexes itself
// (CheckIndex) and names every block and class that does not match them,
// rather than stop at the first.
func (s *Content) ReadForChecks() { s.throughSQL, s.unchecked = true, true }

// BlockLayout is the layout of the puzzle's solution blocks: 3 for the
// blocks this solcat writes, 2 for column blocks with their synopsis in
// the block (schema 12 to 17), 1 for row-major blocks (schema 11 and
// below). See blockTable.
func (s *Content) BlockLayout() int { return s.blocks.Layout }

// Checks says what is checked as the puzzle is read, for --explain.
func (s *Content) Checks() string {
	switch s.Record.Storage {
	case StorageSolutions:
		if s.blocks.Layout < 3 {
			return "blocks not checked: stored before blocks carried checksums"
		}
		if s.classChecks == "" {
			return "every block read is checked against its XXH3 checksum in the block index; class rows unchecked (stored before their checks)"
		}
		return "every block read is checked against its XXH3 checksum in the block index, every class row against its check"
	case StorageClasses:
		if s.classIndex == "" {
			return "class blocks not checked: stored before they carried checksums"
		}
		return "every class block read is checked against its XXH3 checksum in the class index"
	}
	return ""
}
