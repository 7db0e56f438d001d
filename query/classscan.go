package query

import (
	"context"
	"slices"

	"golang.org/x/sync/errgroup"

	"solcat/canon"
	"solcat/catalog"
)

// A class's members are the images s(C) of its canonical form C, each met
// by 8/orbit of the 8 symmetries, and s(C) holds v at a cell exactly when C
// holds it at the cell s maps there. So the members that match a filter's
// cell conditions are (the symmetries whose pulled-back conditions C meets)
// × orbit / 8, and a question about members is answered from the classes
// alone: 8 times fewer rows for the large puzzles, and the only way for a
// puzzle stored as its classes (magic:5, queens:18 and 19).
//
// A puzzle stored as its classes numbers its members too, so that list,
// show and export can name them: class by class, each class's members in
// lexicographic order (magic:5: class k's are 8(k-1)+1 to 8k; a queens
// class may have fewer than 8, and the catalog maps IDs to classes). list
// returns them class by class, in class ID order; that is not one
// lexicographic order over all solutions (that would need every solution
// sorted, which is what storing them would cost).

// classFilter is what the catalog can select of a filter by the class rows
// alone: the orbit, and the stored properties.
func classFilter(f Filter) catalog.ClassFilter {
	cf := catalog.ClassFilter{Orbits: f.Props.Orbits(), Props: uint32(f.Props.Stored())} // a queens symmetry type is a choice of orbit sizes
	if f.Orbit != 0 {
		cf.Orbits = []int{}
		if f.Props.AllowsOrbit(f.Orbit) {
			cf.Orbits = []int{f.Orbit}
		}
	}
	return cf
}

// boardHolds reports whether a class, by its canonical form, has the
// queens properties read off the squares (toroidal, superqueen) that f
// asks: the catalog stores none of them, and a class has them or not as a
// whole.
func boardHolds(f Filter, form []byte) bool {
	want := f.Props.Board()
	return want == 0 || canon.QueensBoardProperties(form)&want == want
}

// countByClasses counts matching solutions (or classes with a matching
// member) from the classes alone, one range of class IDs per worker.
func (t *BoundPuzzle) countByClasses(ctx context.Context, p *Plan, classes bool) (int64, error) {
	if m, ok := t.packedCountable(p); ok {
		counts, err := t.countPacked(ctx, &m, p.Question.Filter.UpToSymmetry, p.Classes.Lo, p.Classes.Hi, max(p.Workers, 1), classes)
		return sumCounts(counts), err
	}
	counts, err := t.countRanges(ctx, p, p.Classes.Lo, p.Classes.Hi, max(p.Workers, 1), classes)
	var sum int64
	for _, c := range counts {
		sum += c
	}
	return sum, err
}

// countRanges counts, in each of workers equal ranges of the class IDs lo
// to hi (in order), the matching solutions or the classes with a matching
// member, a range per goroutine.
func (t *BoundPuzzle) countRanges(ctx context.Context, p *Plan, lo, hi int64, workers int, classes bool) ([]int64, error) {
	f := p.Question.Filter
	if m, ok := t.packedCountable(p); ok {
		counts := make([]int64, workers)
		g, gctx := errgroup.WithContext(ctx)
		for w := range workers {
			from, to := splitRange(lo, hi, w, workers)
			g.Go(func() error {
				n, err := t.countPacked(gctx, &m, f.UpToSymmetry, from, to, 1, classes)
				counts[w] = sumCounts(n)
				return err
			})
		}
		return counts, g.Wait()
	}
	parts := make([]paddedCount, workers)
	err := t.eachClassSplit(ctx, p, lo, hi, workers, func(w int, c catalog.ClassRow) error {
		switch m := matchingMembers(&p.imageConds, c.Form, int64(c.Orbit), f.UpToSymmetry); {
		case m == 0:
		case classes:
			parts[w].n++
		default:
			parts[w].n += m
		}
		return nil
	})
	counts := make([]int64, workers)
	for w := range parts {
		counts[w] = parts[w].n
	}
	return counts, err
}

// eachClassSplit reads the classes lo to hi as workers ranges of class
// IDs, each on its own goroutine and connection, and calls fn with the
// index of the range, so callers can keep a partial result per worker
// without locks.
func (t *BoundPuzzle) eachClassSplit(ctx context.Context, p *Plan, first, last int64, workers int, fn func(w int, c catalog.ClassRow) error) error {
	f := p.Question.Filter
	cf := classFilter(f)
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < workers; w++ {
		lo, hi := splitRange(first, last, w, workers)
		g.Go(func() error {
			return t.store.Classes(gctx, lo, hi, cf, func(c catalog.ClassRow) error {
				if !boardHolds(f, c.Form) {
					return nil
				}
				return fn(w, c)
			})
		})
	}
	return g.Wait()
}

// sumCounts adds up partial counts.
func sumCounts(counts []int64) int64 {
	var n int64
	for _, c := range counts {
		n += c
	}
	return n
}

// splitRange is range w of workers equal ranges of the IDs first to last,
// in order: one a goroutine.
func splitRange(first, last int64, w, workers int) (lo, hi int64) {
	total := max(last-first+1, 0)
	return first + total*int64(w)/int64(workers), first - 1 + total*int64(w+1)/int64(workers)
}

// matchingMembers counts the members of a class (canonical form, orbit
// size) that meet the conditions, given the conditions pulled back through
// each symmetry. Up to symmetry, a member matches when any image does,
// which holds for all members or none.
func matchingMembers(imageConds *[8][]byteCondition, form []byte, orbit int64, upToSymmetry bool) int64 {
	var hits int64
	for _, conds := range imageConds {
		if meets(form, conds) {
			if upToSymmetry {
				return orbit
			}
			hits++
		}
	}
	return hits * orbit / 8
}

// classesByScan streams, in class ID order, the classes with a member
// that meets the filter's cell conditions, read from the classes alone.
func (t *BoundPuzzle) classesByScan(ctx context.Context, p *Plan, pg *pager, fn func(Class) error) error {
	f := p.Question.Filter
	lo := p.Classes.Lo
	if pg.skip > 0 {
		var err error
		if lo, err = t.skipMatches(ctx, p, pg, true); err != nil {
			return err
		}
	}
	return t.store.Classes(ctx, lo, p.Classes.Hi, classFilter(f), func(r catalog.ClassRow) error {
		if !boardHolds(f, r.Form) {
			return nil
		}
		matching := matchingMembers(&p.imageConds, r.Form, int64(r.Orbit), f.UpToSymmetry)
		if matching == 0 || pg.skipped() {
			return nil
		}
		c := t.class(r, matching)
		c.Canonical = slices.Clone(c.Canonical)
		if err := fn(c); err != nil {
			return err
		}
		return pg.gave()
	})
}

// listExpanded streams the members of a classes-only puzzle that match,
// class by class.
func (t *BoundPuzzle) listExpanded(ctx context.Context, p *Plan, pg *pager, fn func(Solution) error) error {
	f := p.Question.Filter
	conds := f.byteConditions(t.Puzzle)
	lo := p.Classes.Lo
	if p.Way == Jump {
		pg.skip = p.Skip // the classes before were jumped over
	} else if pg.skip > 0 {
		var err error
		if lo, err = t.skipMatches(ctx, p, pg, false); err != nil {
			return err
		}
	}
	return t.store.Classes(ctx, lo, p.Classes.Hi, classFilter(f), func(c catalog.ClassRow) error {
		if !boardHolds(f, c.Form) {
			return nil
		}
		matching := matchingMembers(&p.imageConds, c.Form, int64(c.Orbit), f.UpToSymmetry)
		if matching == 0 {
			return nil
		}
		if pg.skip >= matching {
			pg.skip -= matching // the whole class is before the page: no need to expand it
			return nil
		}
		first, err := t.store.FirstMember(ctx, c.ID)
		if err != nil {
			return err
		}
		props := t.class(c, 0).Props // with a queens class's properties, none of them stored
		for k, m := range membersInOrder(t.Puzzle, c.Form) {
			if !f.UpToSymmetry && !meets(m.cells, conds) || first+int64(k) < p.from {
				continue
			}
			if pg.skipped() {
				continue
			}
			s := Solution{ID: first + int64(k), Cells: m.cells, ClassID: c.ID, Symmetry: m.from, Orbit: c.Orbit, Props: props}
			if err := fn(s); err != nil {
				return err
			}
			if err := pg.gave(); err != nil {
				return err
			}
		}
		return nil
	})
}

// skipSpan is how many classes a goroutine counts at a time to skip to a
// page: a fraction of a second's work.
var skipSpan int64 = 1 << 18

// skipMatches brings a page's start near without expanding the classes
// before it: spans of classes are counted through their canonical forms,
// p.Workers spans at once, up to the span the page starts in. It returns
// that span's first class and leaves in pg.skip the matching members (or
// classes with one) to skip from there.
func (t *BoundPuzzle) skipMatches(ctx context.Context, p *Plan, pg *pager, classes bool) (int64, error) {
	workers := int64(max(p.Workers, 1))
	lo := p.Classes.Lo
	for lo <= p.Classes.Hi && pg.skip > 0 {
		hi := min(lo+workers*skipSpan-1, p.Classes.Hi)
		counts, err := t.countRanges(ctx, p, lo, hi, int(workers), classes)
		if err != nil {
			return 0, err
		}
		for w, n := range counts {
			if n > pg.skip {
				return lo + (hi-lo+1)*int64(w)/workers, nil // that range's first class
			}
			pg.skip -= n
		}
		lo = hi + 1
	}
	return lo, nil
}

// member is one member of a class: its image under a symmetry.
type member struct {
	cells []byte
	from  canon.Symmetry
}

// membersInOrder returns the distinct members of a class in lexicographic
// order, each with the first symmetry (in canon.All order) that gives it.
func membersInOrder(p canon.Puzzle, form []byte) []member {
	var out []member
	canon.NewImages(p).Distinct(form, func(s canon.Symmetry, img []byte) error {
		out = append(out, member{cells: slices.Clone(img), from: s})
		return nil
	})
	slices.SortFunc(out, func(a, b member) int { return slices.Compare(a.cells, b.cells) })
	return out
}

// pullBack maps the conditions, for each of the 8 symmetries s, to the
// cells of the canonical form that s carries onto the conditions' cells.
func pullBack(p canon.Puzzle, conds []byteCondition) [8][]byteCondition {
	var out [8][]byteCondition
	n := p.N
	for k, s := range canon.All {
		inv := s.Inverse()
		for _, c := range conds {
			if p.Kind == canon.Queens {
				// A queen at (Pos, Value) in the image sits at inv of it in C.
				r, col := inv.Map(n, c.Pos, int(c.Value))
				out[k] = append(out[k], byteCondition{Pos: r, Value: byte(col), Equal: c.Equal})
			} else {
				r, col := inv.Map(n, c.Pos/n, c.Pos%n)
				out[k] = append(out[k], byteCondition{Pos: r*n + col, Value: c.Value, Equal: c.Equal})
			}
		}
	}
	return out
}

func meets(cells []byte, conds []byteCondition) bool {
	for _, c := range conds {
		if (cells[c.Pos] == c.Value) != c.Equal {
			return false
		}
	}
	return true
}
