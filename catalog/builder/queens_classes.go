package builder

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// queens:18 and queens:19 are stored as their classes (83 and 621 million
// canonical forms), in class ID order, with no sort: the symmetry-reduced
// search finds the canonical forms of a unit in lexicographic order, and
// units taken in order are in lexicographic order too, so the k-th form
// handed on is class k. Units run on every core and are handed on in order;
// each unit's forms are packed, and what the build records about them is
// counted, on the core that searched it; one goroutine writes them.
//
// The writer commits about 4 million classes at a time. A resumed build
// reads the classes saved (to count them again), finds the unit whose
// first rows the last saved form has, and searches on from that unit,
// skipping the classes saved. After the last unit the counts are checked
// against the published ones (solutions, classes, the orbit split), and
// only then is the puzzle put in place with its breakdown by cell.

// queensClassesLayout names how a classes-only queens build is cut; saved
// work with another layout starts over.
func queensClassesLayout(units int, unitRows int64) catalog.Layout {
	return catalog.Layout{Solver: SolverVersion, Cut: catalog.CutQueensClasses, Units: units, UnitRows: unitRows}
}

// queensClassesUnitRows is how many classes the writer commits at a time:
// about 64 units per puzzle, from 4,096 to 4 million classes (queens:19:
// 148 units of about 3 seconds). Tests make it smaller.
var queensClassesUnitRows = func(classes int64) int64 {
	unit := int64(4096)
	for unit < classes/64 && unit < 1<<22 {
		unit *= 2
	}
	return unit
}

// queensClassesHook is called after each class written ("classes", its
// ID) and once all are, before the counts are checked ("check"); tests
// interrupt builds from it.
var queensClassesHook = func(phase string, done int64) {}

// storeQueensClasses stores queens:n as its classes only, from the given
// units (all of them, but for tests); published is false only when tests
// build from a few units, whose counts nobody has published.
func (b *Builder) storeQueensClasses(ctx context.Context, p canon.Puzzle, o Options, units []enumerate.QueensUnit, published bool) (catalog.Record, error) {
	start := time.Now()
	n := p.N
	known, _ := canon.KnownCounts(p)
	plan := catalog.BuildPlan{
		Layout:    queensClassesLayout(len(units), queensClassesUnitRows(known.Classes)),
		UnitRows:  queensClassesUnitRows(known.Classes),
		RowsTotal: known.Classes,
	}
	w, err := b.Cat.BeginClasses(ctx, p, plan)
	if err != nil {
		return catalog.Record{}, begun(ctx, p, err)
	}
	defer w.Rollback()
	if why := w.Discarded(); why != "" {
		o.notice("%s: the saved unfinished build could not be resumed (%s); starting over", p, why)
	}
	stats := newQueensClassStats(n)
	saved, _ := w.Saved()
	var last []byte // the packed form of the last class saved
	if saved > 0 {
		o.notice("%s: resuming at class %s of %s", p, canon.Thousands(int64(saved+1)), canon.Thousands(known.Classes))
		q := make([]byte, n)
		err := w.SavedClasses(func(id int64, packed []byte, orbit int) error {
			canon.UnpackQueens(packed, q)
			stats.add(q, orbit)
			if id == saved {
				last = bytes.Clone(packed)
			}
			return nil
		})
		if err == nil && last == nil {
			err = fmt.Errorf("%s: %w: %d classes saved, but no class %d; a forced rebuild starts over", p, ErrBug, saved, saved)
		}
		if err != nil {
			return catalog.Record{}, stopped(ctx, p, w, err, "classes")
		}
	}
	from := 0
	if last != nil {
		form := make([]byte, n)
		canon.UnpackQueens(last, form)
		i, ok := enumerate.QueensUnitOf(units, form)
		if !ok {
			return catalog.Record{}, fmt.Errorf("%s: %w: the last class saved, %v, is in no search unit; a forced rebuild starts over", p, ErrBug, form)
		}
		from = i
	}
	todo := make([]int, 0, len(units)-from)
	for i := from; i < len(units); i++ {
		todo = append(todo, i)
	}
	bar := o.progress(p.String()+" classes", "classes")
	defer bar.Finish()
	bar.Update(saved, known.Classes)
	type unit struct {
		packed []byte // the forms, packed, back to back
		orbits []byte
		stats  *queensClassStats
		nodes  int64
	}
	size := canon.QueensPackedLen(n)
	var id, nodes int64 // the last class handed to the writer; the nodes searched
	resuming := last != nil
	err = enumerate.SearchQueensUnits(ctx, n, units, todo, o.workers(), func(i int, forms, orbits []byte, c enumerate.ClassCounts) unit {
		u := unit{packed: make([]byte, 0, len(orbits)*size), orbits: orbits, stats: newQueensClassStats(n), nodes: c.Nodes}
		for k, orbit := range orbits {
			form := forms[k*n : (k+1)*n]
			u.packed = canon.PackQueens(u.packed, form)
			u.stats.add(form, int(orbit))
		}
		return u
	}, func(i int, u unit) error {
		nodes += u.nodes
		skip := 0 // the unit's classes saved already
		if resuming {
			resuming = false
			for skip < len(u.orbits) && bytes.Compare(u.packed[skip*size:(skip+1)*size], last) <= 0 {
				skip++
			}
			if skip == 0 || !bytes.Equal(u.packed[(skip-1)*size:skip*size], last) {
				return fmt.Errorf("%s: %w: the search does not find the last class saved again; a forced rebuild starts over", p, ErrBug)
			}
			id = saved - int64(skip)
		}
		if skip == 0 {
			stats.merge(u.stats)
		}
		form := make([]byte, n)
		for k, orbit := range u.orbits {
			id++
			if k < skip {
				continue
			}
			packed := u.packed[k*size : (k+1)*size]
			if skip > 0 {
				canon.UnpackQueens(packed, form)
				stats.add(form, int(orbit))
			}
			if err := w.AddClass(id, packed, int(orbit), 0); err != nil {
				return err
			}
			queensClassesHook("classes", id)
		}
		bar.Update(id, known.Classes)
		return nil
	})
	if err == nil {
		queensClassesHook("check", id)
		err = ctx.Err()
	}
	if err != nil {
		return catalog.Record{}, stopped(ctx, p, w, err, "classes")
	}
	rec := catalog.Record{
		Kind: p.Kind, N: n, Storage: catalog.StorageClasses, Workers: o.workers(),
		BuiltAt: start.UTC().Truncate(time.Second), SolverVersion: SolverVersion, Classes: id,
	}
	if saved == 0 {
		rec.SearchNodes = nodes // a resumed build did not search the units saved
	}
	rec.Orbits = stats.orbits
	for _, orbit := range []int{1, 2, 4, 8} {
		rec.Solutions += int64(orbit) * stats.orbits[orbit]
	}
	rows := stats.breakdown(rec)
	if published {
		if err := checkKnown(p, &rec, rows...); err != nil {
			w.Rollback() // Abandon needs the catalog's one connection
			b.Cat.Work().Abandon(ctx, p.String())
			return rec, err
		}
	}
	rec.BuildSeconds = time.Since(start).Seconds()
	if err := w.Commit(rec, rows...); err != nil {
		return rec, stopped(ctx, p, w, err, "classes")
	}
	return rec, nil
}

// queensClassStats counts, over canonical forms, what a classes-only
// queens build records: the classes by orbit size, and for each orbit O of
// cells under the 8 symmetries what gives every one-cell count (see
// breakdown).
type queensClassStats struct {
	n       int
	cellOrb []int   // cell (row-major) -> its orbit's index
	orbSize []int64 // orbit index -> how many cells it has
	orbits  [9]int64
	weight  []int64 // per cell orbit: the sum over classes of orbit size × queens on it
	touched []int64 // per cell orbit: classes with a queen on it
	full    []int64 // per cell orbit: classes with a queen on each of its cells
	scratch []int64 // per cell orbit: the queens of the form being added
	seen    []int   // the cell orbits the form being added touches
	// the solutions and classes with the board properties (a class has
	// them or not as a whole)
	toroidal, superqueen [2]int64
}

func newQueensClassStats(n int) *queensClassStats {
	s := &queensClassStats{n: n}
	var size []int
	s.cellOrb, size = canon.CellOrbits(n)
	for _, k := range size {
		s.orbSize = append(s.orbSize, int64(k))
	}
	k := len(s.orbSize)
	s.weight, s.touched, s.full, s.scratch = make([]int64, k), make([]int64, k), make([]int64, k), make([]int64, k)
	return s
}

// add counts one canonical form (0-based columns) with its orbit size.
func (s *queensClassStats) add(q []byte, orbit int) {
	s.orbits[orbit]++
	board := canon.QueensBoardProperties(q)
	if board&canon.Toroidal != 0 {
		s.toroidal[0], s.toroidal[1] = s.toroidal[0]+int64(orbit), s.toroidal[1]+1
	}
	if board&canon.Superqueen != 0 {
		s.superqueen[0], s.superqueen[1] = s.superqueen[0]+int64(orbit), s.superqueen[1]+1
	}
	for r, c := range q {
		o := s.cellOrb[r*s.n+int(c)]
		if s.scratch[o] == 0 {
			s.seen = append(s.seen, o)
		}
		s.scratch[o]++
	}
	for _, o := range s.seen {
		s.weight[o] += int64(orbit) * s.scratch[o]
		s.touched[o]++
		if s.scratch[o] == s.orbSize[o] {
			s.full[o]++
		}
		s.scratch[o] = 0
	}
	s.seen = s.seen[:0]
}

// merge adds t's counts to s's.
func (s *queensClassStats) merge(t *queensClassStats) {
	for i := range s.orbits {
		s.orbits[i] += t.orbits[i]
	}
	for i := range 2 {
		s.toroidal[i] += t.toroidal[i]
		s.superqueen[i] += t.superqueen[i]
	}
	for o := range s.weight {
		s.weight[o] += t.weight[o]
		s.touched[o] += t.touched[o]
		s.full[o] += t.full[o]
	}
}

// breakdown returns the counts to record: by symmetry type, and for every
// cell x the solutions and classes with a queen there (value 1) and with
// none (value 0). A class with canonical form C meets x in its member s(C)
// if C has a queen at s⁻¹(x); as s runs over the 8 symmetries, s⁻¹(x) runs
// over x's orbit O, 8/|O| times each, and each member is met 8/orbit times:
// so orbit × (C's queens on O) / |O| of its members have a queen at x, at
// least one if C has a queen on O, and all if C has a queen on every cell
// of O.
func (s *queensClassStats) breakdown(rec catalog.Record) []catalog.Breakdown {
	var out []catalog.Breakdown
	for _, t := range []struct {
		prop   canon.Property
		orbits []int
	}{{canon.Rot90Symmetric, []int{1, 2}}, {canon.Rot180Only, []int{4}}, {canon.Asymmetric, []int{8}}} {
		b := catalog.Breakdown{Stat: catalog.StatProps, Value: int(t.prop)}
		for _, orbit := range t.orbits {
			b.Classes += s.orbits[orbit]
			b.Solutions += int64(orbit) * s.orbits[orbit]
		}
		out = append(out, b)
	}
	out = append(out,
		catalog.Breakdown{Stat: catalog.StatProps, Value: int(canon.Toroidal), Solutions: s.toroidal[0], Classes: s.toroidal[1]},
		catalog.Breakdown{Stat: catalog.StatProps, Value: int(canon.Superqueen), Solutions: s.superqueen[0], Classes: s.superqueen[1]})
	for x, o := range s.cellOrb {
		stat := catalog.StatCell(x/s.n+1, x%s.n+1)
		queens := s.weight[o] / s.orbSize[o]
		out = append(out,
			catalog.Breakdown{Stat: stat, Value: 0, Solutions: rec.Solutions - queens, Classes: rec.Classes - s.full[o]},
			catalog.Breakdown{Stat: stat, Value: 1, Solutions: queens, Classes: s.touched[o]})
	}
	return out
}
