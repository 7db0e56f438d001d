package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"golang.org/x/sync/errgroup"

	"solcat/canon"
	"solcat/catalog"
)

// puzzle is one puzzle being re-checked: its record, and what is stored of
// it (nil if recorded by its counts).
type puzzle struct {
	p     canon.Puzzle
	rec   catalog.Record
	cat   *catalog.Catalog
	store *catalog.Content
}

// Puzzle re-checks a puzzle of the catalog, p with its record rec, from its
// tables alone and reports each problem it finds: every solution obeys the
// rules, solution and class IDs are the lexicographic ranks, every
// solution's class and symmetry agree with its canonical form, every class
// has as many members as its orbit size, the counts equal the record and
// the published values, and the content hash equals the one recorded at
// build time. The error is a read that failed: what was read before it
// was checked.
func Puzzle(ctx context.Context, cat *catalog.Catalog, p canon.Puzzle, rec catalog.Record, report func(problem string)) error {
	pz := &puzzle{p: p, rec: rec, cat: cat}
	var unreadable error // stored in a format this solcat no longer reads
	if rec.Storage != catalog.StorageCounts {
		store, err := cat.Content(ctx, p, rec)
		var old *catalog.OldFormatError
		switch {
		case errors.As(err, &old):
			unreadable = err
		case err != nil:
			return err
		default:
			// verify reads what SQLite reads: a second way to the bytes that
			// queries read in place from the file's pages.
			store.ReadForChecks() // CheckIndex names what does not match the indexes
			pz.store = store
		}
	}
	problem := func(format string, args ...any) { report(fmt.Sprintf(format, args...)) }
	for _, m := range append(recordProblems(p, rec), buildRecordProblems(p, rec)...) {
		problem("%s", m)
	}
	tables, err := cat.Health().StorageProblems(ctx, rec)
	if err != nil {
		return err
	}
	for _, m := range tables {
		problem("%s", m) // the catalog's own check names them too, but not a puzzle verified by name
	}
	if rec.Storage == catalog.StorageCounts {
		counts, err := countsBreakdownProblems(ctx, cat, p, rec)
		for _, m := range counts {
			problem("%s", m)
		}
		return err
	}
	if unreadable != nil {
		return unreadable
	}
	ends, err := pz.store.QuickCheck(ctx)
	if err != nil {
		return err
	}
	for _, m := range ends {
		problem("%s", m)
	}
	if pz.store.ClassesOnly() {
		return pz.verifyClasses(ctx, problem)
	}
	hash := catalog.NewContentHash()
	tally := newRecordedTally(p)
	classes, err := pz.verifyClassRows(ctx, hash, tally, problem)
	if err != nil {
		return err
	}

	forms, orbits, orbitCounts := classes.forms, classes.orbits, classes.orbitCounts

	// Solutions: IDs 1, 2, ... in increasing order, each in its class.
	members, count, err := pz.verifySolutions(ctx, forms, hash, problem)
	if err != nil {
		return err
	}
	for i, m := range members {
		if m != orbits[i] {
			problem("class %d: %d members found, orbit size %d", i+1, m, orbits[i])
		}
	}
	switch {
	case count != rec.Solutions:
		problem("%d solutions stored, %d recorded", count, rec.Solutions)
	case int64(forms.len()) != rec.Classes:
		problem("%d classes stored, %d recorded", forms.len(), rec.Classes)
	case orbitCounts != rec.Orbits:
		problem("classes by orbit size stored %v, recorded %v", orbitCounts, rec.Orbits)
	}
	if sum := hash.Sum(); sum != rec.ContentHash {
		problem("content hash %s differs from the one recorded at build time, %s", sum, rec.ContentHash)
	}
	// What SQL users read: the view over the blocks.
	view, err := pz.store.CheckView(ctx)
	if err != nil {
		return err
	}
	for _, m := range view {
		problem("%s", m)
	}
	if err := pz.verifyIndex(ctx, problem); err != nil {
		return err
	}
	// Counts by cell and property, recorded by the build (by every build
	// of schema 18 and later; none by older ones), last: a class that is
	// wrong makes many of them wrong.
	if rows, err := pz.cat.Health().Breakdowns(ctx, rec.Name); err != nil || len(rows) == 0 {
		return err
	}
	return tally.check(ctx, pz.cat, rec, problem)
}

// verifyIndex checks what the block or class index says of the blocks
// (what queries read first, and check every block they read against).
func (pz *puzzle) verifyIndex(ctx context.Context, problem func(string, ...any)) error {
	index, err := pz.store.CheckIndex(ctx)
	for _, m := range index {
		problem("%s", m)
	}
	return err
}

// storedForms holds the classes' canonical forms one after the other.
type storedForms struct {
	bytes []byte
	ends  []int // where form i+1 ends (a damaged one may be short)
}

func (f *storedForms) add(form []byte) {
	f.bytes = append(f.bytes, form...)
	f.ends = append(f.ends, len(f.bytes))
}

func (f *storedForms) len() int { return len(f.ends) }

// of gives class id's form (IDs from 1).
func (f *storedForms) of(id int64) []byte {
	start := 0
	if id > 1 {
		start = f.ends[id-2]
	}
	return f.bytes[start:f.ends[id-1]]
}

// verifiedClasses is what the class rows' check keeps for the solutions'.
type verifiedClasses struct {
	forms       storedForms
	orbits      []int
	orbitCounts [9]int64
}

// verifyClassRows checks the class rows: IDs 1, 2, ... with canonical forms
// in increasing order (read in order on one goroutine, with the hash), each
// form a solution, canonical, with its orbit and properties (checked in
// batches on every core).
func (pz *puzzle) verifyClassRows(ctx context.Context, hash *catalog.ContentHash, tally *recordedTally, problem func(string, ...any)) (*verifiedClasses, error) {
	p := pz.p
	v := &verifiedClasses{}
	read := func(ctx context.Context, send func(*verifyBatch) error) error {
		r := &rowBatcher{batch: &verifyBatch{}, send: send}
		var prev []byte
		return r.flush(pz.store.Classes(ctx, math.MinInt64, math.MaxInt64, catalog.ClassFilter{}, func(c catalog.ClassRow) error {
			r.classInOrder(c.ID, int64(v.forms.len()+1), c.Form, prev)
			v.forms.add(c.Form)
			prev = v.forms.of(int64(v.forms.len()))
			v.orbits = append(v.orbits, c.Orbit)
			if c.Orbit == 1 || c.Orbit == 2 || c.Orbit == 4 || c.Orbit == 8 {
				v.orbitCounts[c.Orbit]++
			}
			hash.AddClass(c.Form, c.Orbit)
			tally.add(c.Form, c.Orbit, canon.Property(c.Props))
			return r.add(c.ID, c.Form, int64(c.Orbit), canon.Symmetry(0), canon.Property(c.Props))
		}))
	}
	check := func() func(*verifyBatch) {
		canonicalizer := canon.NewImages(p)
		return func(b *verifyBatch) {
			b.each(func(id int64, form []byte, orbit int64, _ canon.Symmetry, props canon.Property) {
				if err := p.Check(form); err != nil {
					b.report("class %d: canonical form is not a solution: %v", id, err)
					return
				}
				if f := canonicalizer.Canonical(form); !bytes.Equal(f.Canonical, form) || int64(f.Orbit) != orbit {
					b.report("class %d: stored form is not canonical or its orbit %d is wrong (computed %d)", id, orbit, f.Orbit)
				}
				if want := p.Properties(form).Stored(); props != want {
					hint := ""
					if props.DudeneyOf() == 0 && want.DudeneyOf() != 0 {
						hint = " (built before Dudeney groups were stored)"
					}
					b.report("class %d: properties %s stored, %s computed%s", id, props, want, hint)
				}
			})
		}
	}
	return v, inBatches(ctx, read, check, func(b *verifyBatch) { b.reportAll(problem) })
}

// verifySolutions checks the stored solutions against the classes' forms
// and adds them to the hash, returning each class's members and the number
// of solutions: IDs, order and hash on one goroutine reading in ID order;
// the rules, canonical form, class and symmetry in batches on every core.
func (pz *puzzle) verifySolutions(ctx context.Context, forms storedForms, hash *catalog.ContentHash, problem func(string, ...any)) ([]int, int64, error) {
	p := pz.p
	var count int64
	read := func(ctx context.Context, send func(*verifyBatch) error) error {
		r := &rowBatcher{batch: &verifyBatch{}, send: send}
		var lastID int64
		var prev []byte
		return r.flush(pz.eachStored(ctx, func(err error) { r.problem("%v", err) }, func(s stored) error {
			count++
			if s.id != lastID+1 {
				r.problem("solution %d: expected solution ID %d here (a row is missing or extra)", s.id, lastID+1)
			}
			lastID = s.id
			if prev != nil && bytes.Compare(s.cells, prev) <= 0 {
				r.problem("solution %d: not greater than the solution before it (repeated, or IDs out of lexicographic order)", s.id)
			}
			prev = append(prev[:0], s.cells...) // s.cells is gone with its block
			hash.AddSolution(s.cells, s.class, int(s.symmetry))
			return r.add(s.id, s.cells, s.class, s.symmetry, 0)
		}))
	}
	check := func() func(*verifyBatch) {
		canonicalizer := canon.NewImages(p)
		return func(b *verifyBatch) {
			b.each(func(id int64, cells []byte, class int64, symmetry canon.Symmetry, _ canon.Property) {
				if err := p.Check(cells); err != nil {
					b.report("solution %d: not a solution: %v", id, err)
					return
				}
				f := canonicalizer.Canonical(cells)
				switch {
				case class < 1 || class > int64(forms.len()):
					b.report("solution %d: class %d does not exist", id, class)
				case !bytes.Equal(f.Canonical, forms.of(class)):
					b.report("solution %d: stored in class %d, but its canonical form is not that class's", id, class)
				case f.From != symmetry:
					b.report("solution %d: symmetry %s stored, %s computed", id, symmetry, f.From)
				default:
					b.found = append(b.found, class)
				}
			})
		}
	}
	members := make([]int, forms.len())
	err := inBatches(ctx, read, check, func(b *verifyBatch) {
		b.reportAll(problem)
		for _, class := range b.found {
			members[class-1]++
		}
	})
	return members, count, err
}

const verifyBatchSize = 1 << 14

// A verifyBatch is a run of class or solution rows, read in ID order and
// checked on another goroutine.
type verifyBatch struct {
	ids      []int64
	cells    []byte           // the rows' forms or cells one after the other
	ends     []int            // where each ends in cells (a damaged one may be short)
	numbers  []int64          // classes: the orbit; solutions: the class ID
	syms     []canon.Symmetry // solutions: the symmetry
	props    []canon.Property // classes: the properties
	problems []string         // found while reading: IDs, order, damage
	checked  []string         // found by the check
	found    []int64          // solutions: the class of each found in its class
}

func (b *verifyBatch) add(id int64, cells []byte, number int64, sym canon.Symmetry, props canon.Property) {
	b.ids = append(b.ids, id)
	b.cells = append(b.cells, cells...)
	b.ends = append(b.ends, len(b.cells))
	b.numbers, b.syms, b.props = append(b.numbers, number), append(b.syms, sym), append(b.props, props)
}

func (b *verifyBatch) each(fn func(id int64, cells []byte, number int64, sym canon.Symmetry, props canon.Property)) {
	start := 0
	for i, id := range b.ids {
		fn(id, b.cells[start:b.ends[i]], b.numbers[i], b.syms[i], b.props[i])
		start = b.ends[i]
	}
}

func (b *verifyBatch) report(format string, args ...any) {
	b.checked = append(b.checked, fmt.Sprintf(format, args...))
}

// reportAll hands over the batch's problems: those found reading, then
// those the check found.
func (b *verifyBatch) reportAll(problem func(string, ...any)) {
	for _, m := range append(b.problems, b.checked...) {
		problem("%s", m)
	}
}

// rowBatcher gathers rows read in ID order into batches of verifyBatchSize
// and sends each when it is full; problems found while reading go into the
// batch of the row they concern.
type rowBatcher struct {
	batch *verifyBatch
	send  func(*verifyBatch) error
}

func (r *rowBatcher) problem(format string, args ...any) {
	r.batch.problems = append(r.batch.problems, fmt.Sprintf(format, args...))
}

// classInOrder reports a class whose ID is not want, or whose form is not
// greater than the previous class's (prev, nil for the first).
func (r *rowBatcher) classInOrder(id, want int64, form, prev []byte) {
	if id != want {
		r.problem("class %d: expected class ID %d here (IDs must run 1, 2, 3, ...)", id, want)
	}
	if prev != nil && bytes.Compare(form, prev) <= 0 {
		r.problem("class %d: canonical form is not greater than class %d's (class IDs must follow lexicographic order)", id, id-1)
	}
}

func (r *rowBatcher) add(id int64, cells []byte, number int64, sym canon.Symmetry, props canon.Property) error {
	r.batch.add(id, cells, number, sym, props)
	if len(r.batch.ids) < verifyBatchSize {
		return nil
	}
	err := r.send(r.batch)
	r.batch = &verifyBatch{}
	return err
}

// flush sends the last batch, unless reading failed (err).
func (r *rowBatcher) flush(err error) error {
	if err == nil && (len(r.batch.ids) > 0 || len(r.batch.problems) > 0) {
		err = r.send(r.batch)
	}
	return err
}

// inBatches runs read on one goroutine, which sends batches in order; each
// batch is checked on one of one goroutine per core (newCheck gives each
// goroutine its check), then handed to done in the order sent, from one
// goroutine: what done does cannot depend on the number of cores.
func inBatches[B any](ctx context.Context, read func(ctx context.Context, send func(B) error) error, newCheck func() func(B), done func(B)) error {
	type item struct {
		batch   B
		checked chan struct{}
	}
	workers := runtime.NumCPU()
	work := make(chan item, workers)
	inOrder := make(chan item, 2*workers+2)
	g, gctx := errgroup.WithContext(ctx)
	for range workers {
		g.Go(func() error {
			check := newCheck()
			for it := range work {
				check(it.batch)
				close(it.checked)
			}
			return nil
		})
	}
	g.Go(func() error {
		defer close(work)
		defer close(inOrder)
		return read(gctx, func(b B) error {
			it := item{b, make(chan struct{})}
			for _, ch := range []chan item{inOrder, work} {
				select {
				case ch <- it:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			return nil
		})
	})
	g.Go(func() error {
		for it := range inOrder {
			select {
			case <-it.checked:
			case <-gctx.Done():
				return gctx.Err()
			}
			done(it.batch)
		}
		return nil
	})
	return g.Wait()
}

// stored is one stored solution as verify reads it.
type stored struct {
	id, class int64
	cells     []byte
	symmetry  canon.Symmetry
}

// eachStored calls fn for every stored solution in ID order; cells is
// valid only during the call. Damage that keeps a stored solution from
// being read (a block that is not whole solutions, a class entry that is
// not a number) goes to damaged, and the scan goes on.
func (pz *puzzle) eachStored(ctx context.Context, damaged func(error), fn func(stored) error) error {
	return pz.store.SolutionsReporting(ctx, 1, math.MaxInt64, func(s catalog.StoredSolution) error {
		class, symmetry, _ := s.Class() // SolutionsReporting hands over only readable entries
		return fn(stored{id: s.ID, class: class, cells: s.Cells, symmetry: canon.Symmetry(symmetry)})
	}, damaged)
}

// verifyClasses re-checks a classes-only puzzle (magic:5, queens:18 and
// 19): IDs 1, 2, ..., forms in increasing order, each a solution in its
// canonical form (magic:5: Frénicle's standard form, which for order 5,
// where no square is fixed by a symmetry, is a class of exactly 8) with its
// orbit size and properties as computed, the numbering of the members, the
// counts and the content hash. The reading and hashing run in order on one
// goroutine; the checks of the forms in batches on every core.
func (pz *puzzle) verifyClasses(ctx context.Context, problem func(string, ...any)) error {
	p, rec := pz.p, pz.rec
	hash := catalog.NewContentHash()
	var count int64
	var orbits [9]int64
	tally := newRecordedTally(p)
	read := func(ctx context.Context, send func(*verifyBatch) error) error {
		r := &rowBatcher{batch: &verifyBatch{}, send: send}
		var prev, packed []byte
		return r.flush(pz.store.Classes(ctx, 1, math.MaxInt64, catalog.ClassFilter{}, func(c catalog.ClassRow) error {
			count++
			r.classInOrder(c.ID, count, c.Form, prev)
			prev = append(prev[:0], c.Form...)
			if p.Kind == canon.Queens {
				packed = canon.PackQueens(packed[:0], c.Form)
			} else {
				packed = canon.Pack25((*[25]byte)(c.Form)).Bytes()
			}
			hash.AddClass(packed, c.Orbit)
			orbits[c.Orbit]++ // the store gives 1, 2, 4 or 8
			tally.add(c.Form, c.Orbit, canon.Property(c.Props))
			return r.add(c.ID, c.Form, int64(c.Orbit), 0, canon.Property(c.Props))
		}))
	}
	check := func() func(*verifyBatch) {
		canonicalizer := canon.NewImages(p)
		return func(b *verifyBatch) {
			b.each(func(id int64, form []byte, orbit int64, _ canon.Symmetry, props canon.Property) {
				if err := p.Check(form); err != nil {
					b.report("class %d: canonical form is not a solution: %v", id, err)
					return
				}
				if p.Kind == canon.Queens {
					if f := canonicalizer.Canonical(form); !bytes.Equal(f.Canonical, form) || int64(f.Orbit) != orbit {
						b.report("class %d: stored form is not canonical or its orbit %d is wrong (computed %d)", id, orbit, f.Orbit)
					}
					if props != 0 {
						b.report("class %d: properties %s stored, none computed", id, props)
					}
					return
				}
				if form[0] > form[4] || form[0] > form[20] || form[0] > form[24] || form[1] > form[5] {
					b.report("class %d: stored form is not in Frénicle's standard form", id)
				}
				want := canon.Magic5Properties((*[25]byte)(form))
				if form[12] == 13 {
					want = p.Properties(form).Stored() // the general computation, where properties are possible
				}
				if props != want {
					b.report("class %d: properties %s stored, %s computed", id, props, want)
				}
			})
		}
	}
	if err := inBatches(ctx, read, check, func(b *verifyBatch) { b.reportAll(problem) }); err != nil {
		return err
	}
	// What the scan above cannot see: blocks past the last class (the
	// members' numbering and the properties past the last class are
	// QuickCheck's, which Verify ran first).
	blockProblems, err := pz.store.CheckClassBlocks(ctx)
	if err != nil {
		return err
	}
	for _, m := range blockProblems {
		problem("%s", m)
	}
	if err := pz.verifyIndex(ctx, problem); err != nil {
		return err
	}
	members := orbits[1] + 2*orbits[2] + 4*orbits[4] + 8*orbits[8]
	if count != rec.Classes || members != rec.Solutions || orbits != rec.Orbits {
		problem("%d classes of %d members stored (by orbit size %d/%d/%d/%d), recorded %d classes, %d solutions (by orbit size %d/%d/%d/%d)",
			count, members, orbits[1], orbits[2], orbits[4], orbits[8], rec.Classes, rec.Solutions, rec.Orbits[1], rec.Orbits[2], rec.Orbits[4], rec.Orbits[8])
	}
	if sum := hash.Sum(); sum != rec.ContentHash {
		problem("content hash %s differs from the one recorded at build time, %s", sum, rec.ContentHash)
	}
	// Counts by one cell, stats by cell or row and the heat map are answered
	// from counts recorded at build time: they must be what the classes give.
	return tally.check(ctx, pz.cat, rec, problem)
}
