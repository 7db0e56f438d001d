package builder

import (
	"context"
	"path/filepath"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
)

// sink records what a build tells its progress bars.
type sink struct {
	label, unit string
	done, total []int64
}

func (s *sink) Update(done, total int64) {
	s.done, s.total = append(s.done, done), append(s.total, total)
}
func (s *sink) Finish() {}

// TestProgressCountsSolutions holds that a stored build's bar counts
// solutions, as users count them (queens:8: 92), not the rows the catalog
// saves (92 solutions and 12 classes); that a stored queens build's search,
// a phase of its own, counts the classes it finds; and that a classes-only
// build's bar counts classes.
func TestProgressCountsSolutions(t *testing.T) {
	for _, tc := range []struct {
		name      string
		p         canon.Puzzle
		asClasses bool
		label     string // the bar's
		unit      string
		total     int64
	}{
		{"queens:8 stored", canon.Puzzle{Kind: canon.Queens, N: 8}, false, "queens:8", "solutions", 92},
		{"queens:8 search", canon.Puzzle{Kind: canon.Queens, N: 8}, false, "queens:8 search", "classes", 12},
		{"magic:3 stored", canon.Puzzle{Kind: canon.Magic, N: 3}, false, "magic:3", "solutions", 8},
		{"queens:8 as classes", canon.Puzzle{Kind: canon.Queens, N: 8}, true, "queens:8 classes", "classes", 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			cat, err := catalog.Create(ctx, filepath.Join(t.TempDir(), "c.db"), catfile.Holder{})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			var bars []*sink
			o := Options{Workers: 2, AsClasses: tc.asClasses, NewProgress: func(label, unit string) Progress {
				s := &sink{label: label, unit: unit}
				bars = append(bars, s)
				return s
			}}
			if _, err := (&Builder{Cat: cat}).Build(ctx, tc.p, o); err != nil {
				t.Fatal(err)
			}
			var bar *sink
			for _, b := range bars {
				if b.label == tc.label {
					bar = b
				}
			}
			if bar == nil {
				t.Fatalf("no bar %q among %d", tc.label, len(bars))
			}
			if bar.unit != tc.unit || len(bar.done) == 0 {
				t.Fatalf("bar %q counts %q (%d updates), want %q", bar.label, bar.unit, len(bar.done), tc.unit)
			}
			last := len(bar.done) - 1
			if bar.total[last] != tc.total || bar.done[last] != tc.total {
				t.Errorf("bar ends at %d of %d, want %d of %d", bar.done[last], bar.total[last], tc.total, tc.total)
			}
			for i := 1; i < len(bar.done); i++ {
				if bar.done[i] < bar.done[i-1] || bar.done[i] > bar.total[i] {
					t.Errorf("update %d: %d of %d after %d", i, bar.done[i], bar.total[i], bar.done[i-1])
				}
			}
		})
	}
}
