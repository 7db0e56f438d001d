package query_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"solcat/query/records"
)

// TestShow checks a class's members, orbit and the solution asked for
// against the solutions enumerated here, and the text drawing.
func TestShow(t *testing.T) {
	cases := []struct {
		puzzle          string
		class, solution int64
		fixedBy         []string
		text            string // a line of the text drawing
	}{
		{"queens:8", 1, 0, []string{"identity"}, "queens:8 class 1 of 12: orbit 8, fixed by identity"},
		{"queens:8", 0, 92, []string{"identity"}, "queens:8 solution 92 of 92: class "},
		{"magic:3", 1, 0, []string{"identity"}, "  2 7 6"},
		{"magic:4", 0, 1, []string{"identity"}, "magic:4 solution 1 of 7,040: class "},
	}
	for _, c := range cases {
		t.Run(c.puzzle, func(t *testing.T) {
			tg := open(t, c.puzzle)
			all := solveAll(t, tg.Puzzle)
			shown, err := tg.Show(context.Background(), c.class, c.solution)
			if err != nil {
				t.Fatal(err)
			}
			want := c.class
			if c.solution != 0 {
				want = all[c.solution-1].class
				if shown.Solution == nil || shown.Solution.ID != c.solution || !slices.Equal(shown.Solution.Cells, all[c.solution-1].cells) {
					t.Fatalf("solution %d: got %+v", c.solution, shown.Solution)
				}
			}
			var members []int64
			for i, s := range all {
				if s.class == want {
					members = append(members, int64(i+1))
				}
			}
			var got []int64
			for _, m := range shown.Members {
				got = append(got, m.ID)
				if !slices.Equal(m.Cells, all[m.ID-1].cells) {
					t.Errorf("member %d: cells %v, want %v", m.ID, m.Cells, all[m.ID-1].cells)
				}
			}
			if shown.Class.ID != want || !slices.Equal(got, members) || shown.Class.Orbit != len(members) {
				t.Errorf("class %d, orbit %d, members %v; want class %d, members %v", shown.Class.ID, shown.Class.Orbit, got, want, members)
			}
			if !slices.Equal(shown.FixedBy, c.fixedBy) {
				t.Errorf("fixed by %v, want %v", shown.FixedBy, c.fixedBy)
			}
			if text := records.ShownText(shown, false); !strings.Contains(text, c.text) {
				t.Errorf("text lacks %q:\n%s", c.text, text)
			}
		})
	}
}
