package query_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/query"
)

// buildCatalog builds the puzzles into a new catalog, stored or counted.
func buildCatalog(t *testing.T, path string, countOnly bool, puzzles ...string) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Create(ctx, path, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	b := &builder.Builder{Cat: cat}
	for _, p := range puzzles {
		if _, err := b.Build(ctx, mustPuzzle(p), builder.Options{CountOnly: countOnly}); err != nil {
			t.Fatal(err)
		}
	}
}

// cellFilter is 1 to 3 random cells of queens:n, queens and empty squares.
func cellFilter(r *rand.Rand, n int) query.Filter {
	var f query.Filter
	for range 1 + r.IntN(3) {
		f.Cells = append(f.Cells, query.Cell{Row: 1 + r.IntN(n), Col: 1 + r.IntN(n), Value: r.IntN(3) % 2})
	}
	return f
}

// TestConstrainedCountsAsStored: on puzzles recorded by their counts,
// counts under random cell filters and the first-row tables (and other
// rows', filtered) are those the stored catalogs give. Sizes 10-12 here;
// 13, 16 and 17 too with SOLCAT_LONG=1.
func TestConstrainedCountsAsStored(t *testing.T) {
	sizes := []string{"queens:10", "queens:11", "queens:12"}
	if os.Getenv("SOLCAT_LONG") != "" {
		sizes = append(sizes, "queens:13", "queens:16", "queens:17")
	}
	dir := t.TempDir()
	stored, counted := filepath.Join(dir, "stored.db"), filepath.Join(dir, "counted.db")
	buildCatalog(t, stored, false, sizes...)
	buildCatalog(t, counted, true, sizes...)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(29, 3))
	for _, name := range sizes {
		s, c := bind(t, stored, name), bind(t, counted, name)
		n := s.Puzzle.N
		for i := range 20 {
			f := cellFilter(r, n)
			f.UpToSymmetry = i%4 == 3
			t.Run(fmt.Sprintf("%s/count/%d", name, i), func(t *testing.T) {
				want := count(t, s, f)
				plan, err := c.Plan(ctx, query.Question{Ask: query.AskCount, Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				wantWay := query.ConstrainedCount
				if f.Impossible(s.Puzzle) != "" {
					wantWay = query.ProvedEmpty // answered 0 before any count
				}
				if plan.Way != wantWay {
					t.Fatalf("%s on counts: way %s, want %s", f.String(s.Puzzle), plan.Way, wantWay)
				}
				got, err := c.Count(ctx, plan)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: %d counted under the filter, %d stored", f.String(s.Puzzle), got, want)
				}
			})
		}
		lines := []query.StatsBy{{Kind: query.ByRow, Row: 1}, {Kind: query.ByRow, Row: n}, {Kind: query.ByRow, Row: 1 + r.IntN(n)},
			{Kind: query.ByCol, Col: 1}, {Kind: query.ByCol, Col: n}, {Kind: query.ByCol, Col: 1 + r.IntN(n)}}
		for i, by := range lines {
			var f query.Filter
			if i%3 == 2 {
				f = cellFilter(r, n)
			}
			t.Run(fmt.Sprintf("%s/%s%d%d/%d", name, by.Kind, by.Row, by.Col, i), func(t *testing.T) {
				q := query.Question{Ask: query.AskStats, Filter: f, By: by}
				want := statsSolutions(t, s, q)
				got := statsSolutions(t, c, q)
				if got != want {
					t.Errorf("%+v under %q: counted %s, stored %s", by, f.String(s.Puzzle), got, want)
				}
			})
		}
		// By the transpose, column C's table is row C's.
		for _, k := range []int{1, n} {
			row := statsSolutions(t, c, query.Question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByRow, Row: k}})
			col := statsSolutions(t, c, query.Question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByCol, Col: k}})
			if row != col {
				t.Errorf("%s: row %d %s, column %d %s", name, k, row, k, col)
			}
		}
	}
}

func count(t *testing.T, tg *query.BoundPuzzle, f query.Filter) int64 {
	t.Helper()
	ctx := context.Background()
	plan, err := tg.Plan(ctx, query.Question{Ask: query.AskCount, Filter: f})
	if err != nil {
		t.Fatal(err)
	}
	n, err := tg.Count(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// statsSolutions is a distribution's values and solutions, as text.
func statsSolutions(t *testing.T, tg *query.BoundPuzzle, q query.Question) string {
	t.Helper()
	ctx := context.Background()
	plan, err := tg.Plan(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := tg.Stats(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	for _, r := range rows {
		out += fmt.Sprintf("%d:%d ", r.Value, r.Solutions)
	}
	return out
}

// TestConstrainedRowsAsClasses: the row and column tables of queens:18
// and queens:19 counted under the filter equal those of the puzzles stored
// as their classes (long: SOLCAT_LONG=1; building queens:19 as classes
// takes about 10 minutes, which SOLCAT_Q19_DB, a catalog that holds it,
// saves).
func TestConstrainedRowsAsClasses(t *testing.T) {
	if testing.Short() || os.Getenv("SOLCAT_LONG") == "" {
		t.Skip("long: builds queens:18 and queens:19 as their classes; set SOLCAT_LONG=1")
	}
	ctx := context.Background()
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		given string // a catalog that holds it as classes already
		lines []query.StatsBy
	}{
		{"queens:18", "", []query.StatsBy{{Kind: query.ByRow, Row: 1}, {Kind: query.ByRow, Row: 18}, {Kind: query.ByRow, Row: 7}, {Kind: query.ByCol, Col: 1}, {Kind: query.ByCol, Col: 10}}},
		{"queens:19", os.Getenv("SOLCAT_Q19_DB"), []query.StatsBy{{Kind: query.ByRow, Row: 1}, {Kind: query.ByRow, Row: 10}, {Kind: query.ByCol, Col: 19}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			classes, counted := tc.given, filepath.Join(dir, tc.name[7:]+"counted.db")
			if classes == "" {
				classes = filepath.Join(dir, tc.name[7:]+"classes.db")
				cat, err := catalog.Create(ctx, classes, catfile.Holder{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := (&builder.Builder{Cat: cat}).Build(ctx, mustPuzzle(tc.name), builder.Options{AsClasses: true}); err != nil {
					t.Fatal(err)
				}
				cat.Close()
			}
			buildCatalog(t, counted, true, tc.name)
			s, c := bind(t, classes, tc.name), bind(t, counted, tc.name)
			for _, by := range tc.lines {
				q := query.Question{Ask: query.AskStats, By: by}
				if want, got := statsSolutions(t, s, q), statsSolutions(t, c, q); got != want {
					t.Errorf("%+v: counted %s, stored as classes %s", by, got, want)
				}
			}
		})
	}
}
