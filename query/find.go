package query

import (
	"context"

	"solcat/canon"
)

// Find returns the stored solution whose cells are cells (as stored: a
// magic square's values row by row, a queen's 0-based column per row), if
// the puzzle has it. It asks for every cell at once, so the planner takes
// the prefix of all of them: two binary searches where solutions are
// stored, a pass over the classes where only classes are.
func (t *BoundPuzzle) Find(ctx context.Context, cells []byte) (Solution, bool, error) {
	if len(cells) != t.Puzzle.Len() {
		return Solution{}, false, nil
	}
	var f Filter
	for i, v := range cells {
		if t.Puzzle.Kind == canon.Queens {
			f.Cells = append(f.Cells, Cell{Row: i + 1, Col: int(v) + 1, Value: 1})
		} else {
			f.Cells = append(f.Cells, Cell{Row: i/t.Puzzle.N + 1, Col: i%t.Puzzle.N + 1, Value: int(v)})
		}
	}
	plan, err := t.Plan(ctx, Question{Ask: AskList, Filter: f, Page: Page{Limit: 1}})
	if err != nil {
		return Solution{}, false, err
	}
	var found *Solution
	err = t.List(ctx, plan, func(s Solution) error { found = &s; return nil })
	if err != nil || found == nil {
		return Solution{}, false, err
	}
	return *found, true, nil
}
