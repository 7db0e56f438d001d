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
	workers := runtime.NumCPU()
	first, total := int64(1), t.Record.Classes
	if f.Class != 0 {
		first, total, workers = f.Class, 1, 1
	}
	counts := make([]int64, workers)
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < workers; w++ {
		lo, hi := first+total*int64(w)/int64(workers), first-1+total*int64(w+1)/int64(workers)
		g.Go(func() error {
			return t.classRows(gctx, lo, hi, f, func(c classRow) error {
				switch m := matchingMembers(&pulled, c.Form, c.Orbit, f.UpToSymmetry); {
				case m == 0:
				case classes:
					counts[w]++
				default:
					counts[w] += m
				}
				return nil
			})
		})
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	var sum int64
	for _, c := range counts {
		sum += c
	}
	return sum, nil
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
	lo, hi := int64(1), t.Record.Classes
	if f.Class != 0 {
		lo, hi = f.Class, f.Class
	}
	skip, left := page.Offset, page.Limit
	if left == 0 {
		return nil
	}
	err := t.classRows(ctx, lo, hi, f, func(r classRow) error {
		matching := matchingMembers(&pulled, r.Form, r.Orbit, f.UpToSymmetry)
		if matching == 0 {
			return nil
		}
		if skip > 0 {
			skip--
			return nil
		}
		c := Class{ID: r.ID, Canonical: slices.Clone(r.Form), Orbit: int(r.Orbit), Props: r.Props, Matching: matching}
		if err := fn(c); err != nil {
			return err
		}
		if left--; left == 0 {
			return errEnough
		}
		return nil
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
