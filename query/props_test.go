package query_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/query"
)

// plainQueens is every solution of queens:n by plain array backtracking,
// each with its properties worked out here: its orbit by drawing its
// images, toroidal and superqueen by testing every pair of queens.
type plainSolution struct {
	cells  []byte
	form   string // the least of its images
	orbit  int
	props  canon.Property
	images [][]byte
}

func plainQueens(n int) []plainSolution {
	p := canon.Puzzle{Kind: canon.Queens, N: n}
	var out []plainSolution
	sol := make([]byte, n)
	var place func(r int)
	place = func(r int) {
		if r == n {
			s := plainSolution{cells: slices.Clone(sol)}
			buf := make([]byte, 8*n)
			for k, sym := range canon.All {
				img := buf[k*n : (k+1)*n : (k+1)*n]
				p.Apply(sym, img, sol)
				if !slices.ContainsFunc(s.images, func(o []byte) bool { return slices.Equal(o, img) }) {
					s.orbit++
				}
				s.images = append(s.images, img)
				if s.form == "" || string(img) < s.form {
					s.form = string(img)
				}
			}
			s.props = canon.SymmetryType(s.orbit)
			toroidal, super := true, true
			for a := range n {
				for b := a + 1; b < n; b++ {
					dr, dc := b-a, int(sol[b])-int(sol[a])
					if (dr-dc)%n == 0 || (dr+dc)%n == 0 {
						toroidal = false
					}
					if dc < 0 {
						dc = -dc
					}
					if dr == 1 && dc == 2 || dr == 2 && dc == 1 {
						super = false
					}
				}
			}
			if toroidal {
				s.props |= canon.Toroidal
			}
			if super {
				s.props |= canon.Superqueen
			}
			out = append(out, s)
			return
		}
	next:
		for c := 0; c < n; c++ {
			for q := 0; q < r; q++ {
				if d := int(sol[q]) - c; d == 0 || d == r-q || d == q-r {
					continue next
				}
			}
			sol[r] = byte(c)
			place(r + 1)
		}
	}
	place(0)
	return out
}

// plainMatches is a queens filter's meaning, written out plainly.
func plainMatches(f query.Filter, s plainSolution) bool {
	holds := func(cells []byte) bool {
		for _, c := range f.Cells {
			if (int(cells[c.Row-1]) == c.Col-1) != (c.Value == 1) {
				return false
			}
		}
		return true
	}
	cells := holds(s.cells)
	if f.UpToSymmetry {
		cells = slices.ContainsFunc(s.images, holds)
	}
	return cells && (f.Orbit == 0 || s.orbit == f.Orbit) && s.props&f.Props == f.Props
}

// propsCatalogs builds queens:1 to maxN stored solution by solution in one
// catalog and as their classes in another.
func propsCatalogs(t *testing.T, maxN int) (bySolutions, byClasses string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	for _, asClasses := range []bool{false, true} {
		path := filepath.Join(dir, fmt.Sprintf("classes-%v.db", asClasses))
		cat, err := catalog.Create(ctx, path, catfile.Holder{})
		if err != nil {
			t.Fatal(err)
		}
		b := &builder.Builder{Cat: cat}
		for n := 1; n <= maxN; n++ {
			if _, err := b.Build(ctx, canon.Puzzle{Kind: canon.Queens, N: n}, builder.Options{AsClasses: asClasses}); err != nil {
				t.Fatal(err)
			}
		}
		cat.Close()
		if asClasses {
			byClasses = path
		} else {
			bySolutions = path
		}
	}
	return bySolutions, byClasses
}

// TestQueensBoardProperties asks queens:1 to 12 (to 13 with
// SOLCAT_LONG=1, 11 with -short), stored solution by solution and as their
// classes, about the toroidal and superqueen properties (one catalog of
// each for both subtests).
func TestQueensBoardProperties(t *testing.T) {
	maxN := 12
	switch {
	case testing.Short():
		maxN = 11
	case os.Getenv("SOLCAT_LONG") != "":
		maxN = 13
	}
	bySolutions, byClasses := propsCatalogs(t, maxN)
	plain := map[int][]plainSolution{}
	solve := func(n int) []plainSolution {
		if plain[n] == nil {
			plain[n] = plainQueens(n)
		}
		return plain[n]
	}
	t.Run("counts", func(t *testing.T) { propertyCounts(t, maxN, bySolutions, byClasses, solve) })
	t.Run("filters", func(t *testing.T) { propertyFilters(t, maxN, bySolutions, byClasses, solve) })
}

// propertyCounts counts the toroidal and superqueen solutions and classes
// (and both) of each puzzle, and checks each count against a plain search
// that tests every solution one by one, and against the published counts
// (A051906; A051223 and A051224); stats --by prop:NAME the same.
func propertyCounts(t *testing.T, maxN int, bySolutions, byClasses string, solve func(n int) []plainSolution) {
	ctx := context.Background()
	for n := 1; n <= maxN; n++ {
		p := canon.Puzzle{Kind: canon.Queens, N: n}
		all := solve(n)
		bound := []*query.BoundPuzzle{bind(t, bySolutions, p.String()), bind(t, byClasses, p.String())}
		for _, prop := range []canon.Property{canon.Toroidal, canon.Superqueen, canon.Toroidal | canon.Superqueen} {
			var want [2]int64 // solutions, classes
			forms := map[string]bool{}
			for _, s := range all {
				if s.props&prop == prop {
					want[0]++
					forms[s.form] = true
				}
			}
			want[1] = int64(len(forms))
			if prop != canon.Toroidal|canon.Superqueen {
				known, _ := canon.KnownWithProperty(p, prop)
				if want[0] != known.Solutions || known.Classes >= 0 && want[1] != known.Classes {
					t.Errorf("%s %s: the plain search finds %d solutions in %d classes, OEIS %d in %d", p, prop, want[0], want[1], known.Solutions, known.Classes)
				}
			}
			for _, tg := range bound {
				f := query.Filter{Props: prop}
				var got [2]int64
				for i, ask := range []query.Ask{query.AskCount, query.AskCountClasses} {
					plan, err := tg.Plan(ctx, query.Question{Ask: ask, Filter: f})
					if err != nil {
						t.Fatal(err)
					}
					if got[i], err = tg.Count(ctx, plan); err != nil {
						t.Fatal(err)
					}
				}
				if got != want {
					t.Errorf("%s (%s) --prop %s: %d solutions, %d classes; the plain search %d, %d", p, tg.Record.Storage, prop, got[0], got[1], want[0], want[1])
				}
				if prop == canon.Toroidal|canon.Superqueen {
					continue
				}
				plan, err := tg.Plan(ctx, query.Question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByProp, Prop: prop}})
				if err != nil {
					t.Fatal(err)
				}
				rows, err := tg.Stats(ctx, plan)
				if err != nil {
					t.Fatal(err)
				}
				var yes int64
				for _, r := range rows {
					if r.Value == 1 {
						yes = r.Solutions
					}
				}
				if yes != want[0] {
					t.Errorf("%s (%s) stats by prop:%s: %v; %d solutions have it", p, tg.Record.Storage, prop, rows, want[0])
				}
			}
		}
	}
}

// propertyFilters asks random questions that combine a toroidal or
// superqueen property with cells, cells up to symmetry, orbit sizes and
// symmetry types, of queens:11 and, when maxN reaches it, 13 (the sizes
// with both properties) stored both ways, and compares the counts, the
// solutions listed and the classes listed with the plain search's.
func propertyFilters(t *testing.T, maxN int, bySolutions, byClasses string, solve func(n int) []plainSolution) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(41, 13))
	sizes := []int{11}
	if maxN >= 13 {
		sizes = append(sizes, 13)
	}
	for _, n := range sizes {
		p := canon.Puzzle{Kind: canon.Queens, N: n}
		all := solve(n)
		bound := []*query.BoundPuzzle{bind(t, bySolutions, p.String()), bind(t, byClasses, p.String())}
		for range 20 {
			var f query.Filter
			f.Props = []canon.Property{canon.Toroidal, canon.Superqueen}[r.IntN(2)]
			// Cells taken from a solution that has the property, so that
			// some match.
			var have []plainSolution
			for _, s := range all {
				if s.props&f.Props != 0 {
					have = append(have, s)
				}
			}
			from := have[r.IntN(len(have))]
			for range r.IntN(3) {
				row := r.IntN(n)
				c := query.Cell{Row: row + 1, Col: int(from.cells[row]) + 1, Value: 1}
				if r.IntN(4) == 0 {
					c.Col, c.Value = 1+r.IntN(n), 0
				}
				f.Cells = append(f.Cells, c)
			}
			f.UpToSymmetry = len(f.Cells) > 0 && r.IntN(3) == 0
			if r.IntN(3) == 0 {
				f.Orbit = []int{2, 4, 8}[r.IntN(3)]
			}
			if r.IntN(4) == 0 {
				f.Props |= []canon.Property{canon.Rot180Only, canon.Asymmetric}[r.IntN(2)]
			}
			var want []string
			forms := map[string]bool{}
			for _, s := range all {
				if plainMatches(f, s) {
					want = append(want, fmt.Sprint(s.cells))
					forms[s.form] = true
				}
			}
			slices.Sort(want)
			wantForms := slices.Sorted(func(yield func(string) bool) {
				for f := range forms {
					if !yield(fmt.Sprint([]byte(f))) {
						return
					}
				}
			})
			for _, tg := range bound {
				where := fmt.Sprintf("%s (%s) %s", p, tg.Record.Storage, f.String(p))
				counts := make([]int64, 2)
				for i, ask := range []query.Ask{query.AskCount, query.AskCountClasses} {
					plan, err := tg.Plan(ctx, query.Question{Ask: ask, Filter: f})
					if err != nil {
						t.Fatal(err)
					}
					if counts[i], err = tg.Count(ctx, plan); err != nil {
						t.Fatal(err)
					}
				}
				if counts[0] != int64(len(want)) || counts[1] != int64(len(wantForms)) {
					t.Errorf("%s: %d solutions, %d classes; the plain search %d, %d", where, counts[0], counts[1], len(want), len(wantForms))
				}
				plan, err := tg.Plan(ctx, query.Question{Ask: query.AskList, Filter: f, Window: query.Window{Limit: -1}})
				if err != nil {
					t.Fatal(err)
				}
				var listed []string
				err = tg.List(ctx, plan, func(s query.Solution) error {
					if s.Props&f.Props != f.Props {
						t.Errorf("%s: solution %d listed with properties %v", where, s.ID, s.Props)
					}
					listed = append(listed, fmt.Sprint(s.Cells))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				slices.Sort(listed)
				if !slices.Equal(listed, want) {
					t.Errorf("%s: lists %d solutions, the plain search %d", where, len(listed), len(want))
				}
				plan, err = tg.Plan(ctx, query.Question{Ask: query.AskClasses, Filter: f, Window: query.Window{Limit: -1}})
				if err != nil {
					t.Fatal(err)
				}
				var classes []string
				err = tg.Classes(ctx, plan, func(c query.Class) error {
					if c.Props&f.Props != f.Props {
						t.Errorf("%s: class %d listed with properties %v", where, c.ID, c.Props)
					}
					classes = append(classes, fmt.Sprint(c.Canonical))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				slices.Sort(classes)
				if !slices.Equal(classes, wantForms) {
					t.Errorf("%s: lists %d classes, the plain search %d", where, len(classes), len(wantForms))
				}
			}
		}
	}
}
