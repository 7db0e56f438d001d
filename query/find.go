package query

import (
	"bytes"
	"context"

	"solcat/canon"
)

// Find returns the stored solution whose cells are cells (as stored: a
// magic square's values row by row, a queen's 0-based column per row), if
// the puzzle has it (cells that break the rules it has not). Where solutions are stored it asks for every cell at
// once, so the planner takes the prefix of all of them: two binary
// searches. Where only classes are, a scan for the cells would read every
// class; the class is found instead by a binary search over the canonical
// forms (class IDs are their ranks), and the solution among its members.
func (t *BoundPuzzle) Find(ctx context.Context, cells []byte) (Solution, bool, error) {
	if t.Puzzle.Check(cells) != nil { // no solution: none is stored
		return Solution{}, false, nil
	}
	if err := t.countsOnly(); err != nil {
		return Solution{}, false, err
	}
	var f Filter
	if t.classesOnly() {
		id, ok, err := t.classOf(ctx, canon.NewImages(t.Puzzle).Canonical(cells).Canonical)
		if err != nil || !ok {
			return Solution{}, false, err
		}
		f.Class = id
	} else {
		for i, v := range cells {
			if t.Puzzle.Kind == canon.Queens {
				f.Cells = append(f.Cells, Cell{Row: i + 1, Col: int(v) + 1, Value: 1})
			} else {
				f.Cells = append(f.Cells, Cell{Row: i/t.Puzzle.N + 1, Col: i%t.Puzzle.N + 1, Value: int(v)})
			}
		}
	}
	plan, err := t.Plan(ctx, Question{Ask: AskList, Filter: f, Window: Window{Limit: -1}})
	if err != nil {
		return Solution{}, false, err
	}
	var found *Solution
	err = t.List(ctx, plan, func(s Solution) error {
		if found == nil && bytes.Equal(s.Cells, cells) {
			s.Cells = bytes.Clone(s.Cells)
			found = &s
		}
		return nil
	})
	if err != nil || found == nil {
		return Solution{}, false, err
	}
	return *found, true, nil
}

// classOf finds the class whose canonical form is form.
func (t *BoundPuzzle) classOf(ctx context.Context, form []byte) (int64, bool, error) {
	lo, hi := int64(1), t.Record.Classes+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		c, ok, err := t.store.Class(ctx, mid)
		if err != nil || !ok {
			return 0, false, err
		}
		if bytes.Compare(c.Form, form) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo > t.Record.Classes {
		return 0, false, nil
	}
	c, ok, err := t.store.Class(ctx, lo)
	return lo, ok && bytes.Equal(c.Form, form), err
}

// FindAll is Find for many solutions at once: found[i] is cells[i]'s
// solution, nil where there is none. Where they are many against the
// puzzle's solutions (one in 64 or more), one pass over the solution
// blocks reads less than two binary searches for each.
func (t *BoundPuzzle) FindAll(ctx context.Context, cells [][]byte) ([]*Solution, error) {
	if err := t.countsOnly(); err != nil {
		return nil, err
	}
	found := make([]*Solution, len(cells))
	if t.classesOnly() || int64(len(cells))*64 < t.Record.Solutions {
		for i, c := range cells {
			s, ok, err := t.Find(ctx, c)
			if err != nil {
				return nil, err
			}
			if ok {
				found[i] = &s
			}
		}
		return found, nil
	}
	wanted := map[string][]int{}
	for i, c := range cells {
		wanted[string(c)] = append(wanted[string(c)], i)
	}
	plan, err := t.Plan(ctx, Question{Ask: AskList, Window: Window{Limit: -1}})
	if err != nil {
		return nil, err
	}
	err = t.List(ctx, plan, func(s Solution) error {
		for _, i := range wanted[string(s.Cells)] {
			sol := s
			sol.Cells = bytes.Clone(s.Cells)
			found[i] = &sol
		}
		return nil
	})
	return found, err
}
