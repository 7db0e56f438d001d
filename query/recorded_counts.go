package query

import (
	"context"
	"fmt"

	"solcat/catalog"
	"solcat/query/verify"
)

// recordedCell reads the counts recorded by one cell, which have a row for
// every value: a missing one was lost, and is not read as 0.
func (t *BoundPuzzle) recordedCell(ctx context.Context, row, col int) (map[int]catalog.Breakdown, error) {
	stat := catalog.StatCell(row, col)
	rows, err := t.cat.Breakdown(ctx, t.Record.Name, stat)
	if err != nil {
		return nil, err
	}
	out := map[int]catalog.Breakdown{}
	for _, r := range rows {
		out[r.Value] = r
	}
	for _, v := range verify.CellValues(t.Puzzle) {
		if _, ok := out[v]; !ok {
			return nil, &catalog.DamagedError{Puzzle: t.Puzzle.String(), Path: t.cat.Path(), Problem: fmt.Sprintf("the counts recorded by %s lack a row for value %d", stat, v)}
		}
	}
	return out, nil
}
