package query_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"solcat/query"
)

// TestFind looks up solutions by their cells, in a puzzle stored as
// solutions and in one stored as its classes: each found has the ID,
// class and symmetry that listing it by its ID gives; cells that are no
// solution are not found; a puzzle known by its counts says so.
func TestFind(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"queens:8", "magic:4", "queens:12"} {
		t.Run(name, func(t *testing.T) {
			tg := open(t, name)
			for id := int64(1); id <= tg.Record.Solutions; id += 1 + tg.Record.Solutions/40 {
				want, err := tg.Solution(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				got, ok, err := tg.Find(ctx, want.Cells)
				if err != nil || !ok || got.ID != id || got.ClassID != want.ClassID || got.Symmetry != want.Symmetry || !bytes.Equal(got.Cells, want.Cells) {
					t.Errorf("solution %d: found %+v, %v, %v; want %+v", id, got, ok, err, want)
				}
			}
			// FindAll: all solutions (one pass over the blocks where they
			// are stored), a few (a binary search each), and a wrong one.
			wrong := make([]byte, tg.Puzzle.Len()) // all zeros: no solution of either kind
			plan, err := tg.Plan(ctx, query.Question{Ask: query.AskList, Window: query.Window{Limit: -1}})
			if err != nil {
				t.Fatal(err)
			}
			var all []query.Solution
			if err := tg.List(ctx, plan, func(s query.Solution) error {
				s.Cells = bytes.Clone(s.Cells)
				all = append(all, s)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			steps := []int64{1, tg.Record.Solutions / 5}
			if tg.Record.Solutions > 10000 {
				steps[0] = 97 // stored as classes: a binary search each, kept to a sample
			}
			for _, step := range steps {
				var cells [][]byte
				var ids []int64
				for id := int64(1); id <= tg.Record.Solutions; id += step {
					cells, ids = append(cells, all[id-1].Cells), append(ids, id)
				}
				found, err := tg.FindAll(ctx, append(cells, wrong))
				if err != nil || len(found) != len(ids)+1 || found[len(ids)] != nil {
					t.Fatalf("FindAll of %d: %d found, %v", len(cells)+1, len(found), err)
				}
				for i, s := range found[:len(ids)] {
					if s == nil || s.ID != ids[i] || !bytes.Equal(s.Cells, cells[i]) {
						t.Fatalf("FindAll: solution %d found as %+v", ids[i], s)
					}
				}
			}
			if _, ok, err := tg.Find(ctx, wrong); ok || err != nil {
				t.Errorf("%v found (%v)", wrong, err)
			}
		})
	}
	if _, _, err := open(t, "queens:11").Find(ctx, []byte{0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9}); !errors.Is(err, query.ErrCountsOnly) {
		t.Errorf("queens:11, counts only: %v", err)
	}
}
