package query

import (
	"context"
	"errors"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"solcat/canon"
)

// countByClasses counts matching solutions (or classes with a matching
// member) from the classes alone. A class's members are the images s(C) of
// its canonical form C, each met by 8/orbit of the 8 symmetries, and s(C)
// holds v at a cell exactly when C holds it at the cell s maps there; so
// the members that match are (the symmetries whose pulled-back conditions C
// meets) × orbit / 8. The class table is 8 times shorter than the solution
// table for the large puzzles, and a few byte tests in Go cost less than
// one SQL function call per stored row. The work is split into ranges of
// class IDs, one per core, each on its own read-only connection.
func (t *Target) countByClasses(ctx context.Context, f Filter, classes bool) (int64, error) {
	pulled := pullBack(t.Puzzle, f.byteConditions(t.Puzzle))
	counts := make([]int64, t.scanWorkers(f))
	err := t.eachClassSplit(ctx, f, len(counts), func(w int, c classRow) error {
		switch m := matchingMembers(&pulled, c.Form, c.Orbit, f.UpToSymmetry); {
		case m == 0:
		case classes:
			counts[w]++
		default:
			counts[w] += m
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, c := range counts {
		sum += c
	}
	return sum, nil
}

// classRange is the span of class IDs a filter covers: its class, or all.
func (t *Target) classRange(f Filter) (lo, hi int64) {
	if f.Class != 0 {
		return f.Class, f.Class
	}
	return 1, t.Record.Classes
}

// scanWorkers is how many goroutines eachClassSplit uses for a filter: one
// per core, or one for a single class.
func (t *Target) scanWorkers(f Filter) int {
	if f.Class != 0 {
		return 1
	}
	return runtime.NumCPU()
}

// eachClassSplit reads the classes a filter covers as workers ranges of
// class IDs, each on its own goroutine and read-only connection, and calls
// fn with the index of the range, so callers can keep a partial result per
// worker without locks.
func (t *Target) eachClassSplit(ctx context.Context, f Filter, workers int, fn func(w int, c classRow) error) error {
	first, last := t.classRange(f)
	total := last - first + 1
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < workers; w++ {
		lo, hi := first+total*int64(w)/int64(workers), first-1+total*int64(w+1)/int64(workers)
		g.Go(func() error {
			return t.classRows(gctx, lo, hi, f, func(c classRow) error { return fn(w, c) })
		})
	}
	return g.Wait()
}

// pager applies a Page to a stream: skipped reports (and counts) an item
// that falls in the offset; gave, after an item is handed out, stops the
// stream with errEnough once the limit is reached.
type pager struct{ skip, left int64 }

func (p *pager) skipped() bool {
	if p.skip > 0 {
		p.skip--
		return true
	}
	return false
}

func (p *pager) gave() error {
	if p.left--; p.left == 0 {
		return errEnough
	}
	return nil
}

// matchingMembers counts the members of a class (canonical form, orbit
// size) that meet the conditions, given the conditions pulled back through
// each symmetry. Up to symmetry, a member matches when any image does,
// which holds for all members or none.
func matchingMembers(pulled *[8][]byteCondition, form []byte, orbit int64, upToSymmetry bool) int64 {
	var hits int64
	for _, conds := range pulled {
		if meets(form, conds) {
			if upToSymmetry {
				return orbit
			}
			hits++
		}
	}
	return hits * orbit / 8
}

// classesByScan streams, in class ID order, the classes with a member that
// meets the filter's cell conditions, read from the classes alone as in
// countByClasses.
func (t *Target) classesByScan(ctx context.Context, f Filter, page Page, fn func(Class) error) error {
	pulled := pullBack(t.Puzzle, f.byteConditions(t.Puzzle))
	lo, hi := t.classRange(f)
	pg := pager{skip: page.Offset, left: page.Limit}
	if pg.left == 0 {
		return nil
	}
	err := t.classRows(ctx, lo, hi, f, func(r classRow) error {
		matching := matchingMembers(&pulled, r.Form, r.Orbit, f.UpToSymmetry)
		if matching == 0 || pg.skipped() {
			return nil
		}
		c := Class{ID: r.ID, Canonical: slices.Clone(r.Form), Orbit: int(r.Orbit), Props: r.Props, Matching: matching}
		if err := fn(c); err != nil {
			return err
		}
		return pg.gave()
	})
	if err == errEnough {
		return nil
	}
	return err
}

// errEnough stops a scan that has found all it was asked for.
var errEnough = errors.New("enough")

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
