package query_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/enumerate"
	"solcat/query"
)

// The tests here query a small catalog (magic:3-4, queens:1-10 stored,
// queens:11 as counts) and check every answer against the solutions
// enumerated and classified here, without the catalog.
var testCatalog string

func TestMain(m *testing.M) {
	debug.SetGCPercent(400) // many catalogs in one process: collect at 4x the live heap (a fifth less processor time)
	dir, err := os.MkdirTemp("", "solcat-query-")
	if err != nil {
		panic(err)
	}
	testCatalog = filepath.Join(dir, "cat.db")
	ctx := context.Background()
	cat, err := catalog.Create(ctx, testCatalog, catfile.Holder{})
	if err != nil {
		panic(err)
	}
	b := &builder.Builder{Cat: cat}
	for _, p := range []string{"magic:3", "magic:4", "queens:1", "queens:6", "queens:8", "queens:9", "queens:10"} {
		if _, err := b.Build(ctx, mustPuzzle(p), builder.Options{}); err != nil {
			panic(err)
		}
	}
	if _, err := b.Build(ctx, mustPuzzle("queens:11"), builder.Options{CountOnly: true}); err != nil {
		panic(err)
	}
	if _, err := b.Build(ctx, mustPuzzle("queens:12"), builder.Options{AsClasses: true}); err != nil {
		panic(err)
	}
	cat.Close()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func mustPuzzle(name string) canon.Puzzle {
	p, err := canon.ParsePuzzle(name)
	if err != nil {
		panic(err)
	}
	return p
}

// open binds a puzzle of the test catalog.
func open(t *testing.T, name string) *query.BoundPuzzle {
	t.Helper()
	return bind(t, testCatalog, name)
}

// solved is one solution as the tests know it: cells, class, orbit,
// properties.
type solved struct {
	cells []byte
	class int64
	orbit int
	props canon.Property
	forms [][]byte // its 8 images
}

// solveAll enumerates a puzzle's solutions in lexicographic order (=ID
// order) and classifies them here.
func solveAll(t *testing.T, p canon.Puzzle) []solved {
	t.Helper()
	var all []solved
	canonicalizer := canon.NewImages(p)
	forms := map[string]bool{}
	_, err := enumerate.All(context.Background(), p, enumerate.Options{}, func(sol []byte) error {
		f := canonicalizer.Canonical(sol)
		forms[string(f.Canonical)] = true
		s := solved{cells: slices.Clone(sol), orbit: f.Orbit, props: p.Properties(f.Canonical)}
		for _, sym := range canon.All {
			img := make([]byte, len(sol))
			p.Apply(sym, img, sol)
			s.forms = append(s.forms, img)
		}
		all = append(all, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sorted := make([]string, 0, len(forms))
	for f := range forms {
		sorted = append(sorted, f)
	}
	slices.Sort(sorted)
	for i := range all {
		id, _ := slices.BinarySearch(sorted, string(canonicalizer.Canonical(all[i].cells).Canonical))
		all[i].class = int64(id) + 1
	}
	return all
}

// matches is the filter's meaning, written out plainly.
func matches(p canon.Puzzle, f query.Filter, s solved) bool {
	holds := func(cells []byte) bool {
		for _, c := range f.Cells {
			if p.Kind == canon.Magic && int(cells[(c.Row-1)*p.N+c.Col-1]) != c.Value {
				return false
			}
			if p.Kind == canon.Queens && (int(cells[c.Row-1]) == c.Col-1) != (c.Value == 1) {
				return false
			}
		}
		return true
	}
	cellsOK := holds(s.cells)
	if f.UpToSymmetry {
		cellsOK = slices.ContainsFunc(s.forms, holds)
	}
	props := s.props
	if p.Kind == canon.Queens {
		props |= canon.SymmetryType(s.orbit)
	}
	return cellsOK && (f.Class == 0 || s.class == f.Class) && (f.Orbit == 0 || s.orbit == f.Orbit) && props&f.Props == f.Props
}

// randomFilter makes a filter of a few random conditions.
func randomFilter(r *rand.Rand, p canon.Puzzle, classes int64) query.Filter {
	var f query.Filter
	for range r.IntN(3) {
		c := query.Cell{Row: 1 + r.IntN(p.N), Col: 1 + r.IntN(p.N)}
		if p.Kind == canon.Magic {
			c.Value = 1 + r.IntN(p.N*p.N)
		} else {
			c.Value = r.IntN(2)
		}
		f.Cells = append(f.Cells, c)
	}
	if r.IntN(4) == 0 && len(f.Cells) > 0 {
		f.UpToSymmetry = true
	}
	if r.IntN(5) == 0 {
		f.Class = 1 + r.Int64N(classes)
	}
	if r.IntN(5) == 0 {
		f.Orbit = []int{1, 2, 4, 8}[r.IntN(4)]
	}
	if r.IntN(5) == 0 {
		names := canon.PropertyNames(p.Kind)
		prop, _ := canon.ParseProperty(p.Kind, names[r.IntN(len(names))])
		if prop.DudeneyOf() == 0 || p.N == 4 { // Dudeney's groups are of order 4
			f.Props = prop
		}
	}
	return f
}

// TestAnswersAgainstTheSolutions asks random questions of each stored
// puzzle (75 of each, 150 with SOLCAT_LONG=1) and compares count, list and
// classes with the solutions enumerated here.
func TestAnswersAgainstTheSolutions(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	questions := 75
	if !testing.Short() && os.Getenv("SOLCAT_LONG") != "" {
		questions = 150
	}
	for _, name := range []string{"magic:3", "magic:4", "queens:6", "queens:8", "queens:9"} {
		tg := open(t, name)
		p := tg.Puzzle
		all := solveAll(t, p)
		ways := map[query.Way]int{}
		for i := range questions {
			f := randomFilter(r, p, tg.Record.Classes)
			if i == 0 {
				f = query.Filter{}
			}
			var want []int64 // matching solution IDs
			perClass := map[int64]int64{}
			for k, s := range all {
				if matches(p, f, s) {
					want = append(want, int64(k+1))
					perClass[s.class]++
				}
			}
			desc := fmt.Sprintf("%s %s", name, f.String(p))
			for ask, n := range map[query.Ask]int64{query.AskCount: int64(len(want)), query.AskCountClasses: int64(len(perClass))} {
				plan, err := tg.Plan(ctx, query.Question{Ask: ask, Filter: f})
				if err != nil {
					t.Fatalf("%s: %v", desc, err)
				}
				ways[plan.Way]++
				if got, err := tg.Count(ctx, plan); err != nil || got != n {
					t.Errorf("%s, ask %d by %s: %d, %v; want %d", desc, ask, plan.Way, got, err, n)
				}
			}
			page := query.Window{Offset: int64(r.IntN(4)), Limit: int64(r.IntN(6)) - 1}
			plan, err := tg.Plan(ctx, query.Question{Ask: query.AskList, Filter: f, Window: page})
			if err != nil {
				t.Fatal(err)
			}
			ways[plan.Way]++
			var got []int64
			err = tg.List(ctx, plan, func(s query.Solution) error {
				if s.ID < 1 || !bytes.Equal(s.Cells, all[s.ID-1].cells) || s.ClassID != all[s.ID-1].class || s.Orbit != all[s.ID-1].orbit {
					t.Errorf("%s: solution %d is %+v", desc, s.ID, s)
				}
				got = append(got, s.ID)
				return nil
			})
			wantPage := want[min(int64(len(want)), page.Offset):]
			if page.Limit >= 0 {
				wantPage = wantPage[:min(int64(len(wantPage)), page.Limit)]
			}
			if err != nil || !slices.Equal(got, wantPage) {
				t.Errorf("%s, list %+v by %s: %v, %v; want %v", desc, page, plan.Way, got, err, wantPage)
			}
			plan, err = tg.Plan(ctx, query.Question{Ask: query.AskClasses, Filter: f, Window: query.Window{Limit: -1}})
			if err != nil {
				t.Fatal(err)
			}
			ways[plan.Way]++
			gotClasses := map[int64]int64{}
			err = tg.Classes(ctx, plan, func(c query.Class) error {
				gotClasses[c.ID] = c.Matching
				return nil
			})
			if f.UpToSymmetry { // a whole class matches: every member counts
				for id := range perClass {
					perClass[id] = int64(all[slices.IndexFunc(all, func(s solved) bool { return s.class == id })].orbit)
				}
			}
			if err != nil || fmt.Sprint(gotClasses) != fmt.Sprint(perClass) {
				t.Errorf("%s, classes by %s: %v, %v; want %v", desc, plan.Way, gotClasses, err, perClass)
			}
		}
		t.Logf("%s: plans %v", name, ways)
	}
}

// TestPlans checks which way each kind of question is answered, and that
// the record and recorded breakdowns answer without reading solutions.
func TestPlans(t *testing.T) {
	ctx := context.Background()
	cell := func(r, c, v int) []query.Cell { return []query.Cell{{Row: r, Col: c, Value: v}} }
	for _, tc := range []struct {
		puzzle string
		q      query.Question
		way    query.Way
		count  int64 // for the count questions
	}{
		{"queens:8", query.Question{Ask: query.AskCount}, query.FromRecord, 92},
		{"queens:8", query.Question{Ask: query.AskCountClasses}, query.FromRecord, 12},
		{"queens:8", query.Question{Ask: query.AskCount, Filter: query.Filter{Orbit: 4}}, query.FromRecord, 4},
		{"queens:8", query.Question{Ask: query.AskCount, Filter: query.Filter{Cells: cell(1, 1, 1)}}, query.FromBreakdown, 4},
		{"queens:8", query.Question{Ask: query.AskCount, Filter: query.Filter{Cells: cell(4, 4, 1)}}, query.FromBreakdown, 8},
		{"queens:8", query.Question{Ask: query.AskCountClasses, Filter: query.Filter{Cells: cell(1, 1, 1)}}, query.FromBreakdown, 2},
		{"queens:8", query.Question{Ask: query.AskCount, Filter: query.Filter{Cells: append(cell(1, 1, 1), cell(2, 5, 1)...)}}, query.PrefixRange, 1},
		{"queens:8", query.Question{Ask: query.AskCount, Filter: query.Filter{Cells: append(cell(4, 4, 1), cell(6, 1, 1)...)}}, query.BlockScan, 2},
		{"queens:8", query.Question{Ask: query.AskCountClasses, Filter: query.Filter{Cells: append(cell(1, 1, 1), cell(4, 4, 0)...)}}, query.BlockScan, 2},
		{"queens:8", query.Question{Ask: query.AskCount, Filter: query.Filter{Class: 10}}, query.ClassMembers, 4},
		{"queens:8", query.Question{Ask: query.AskCount, Filter: query.Filter{Props: canon.Asymmetric}}, query.FromBreakdown, 88},
		{"magic:4", query.Question{Ask: query.AskCount, Filter: query.Filter{Cells: cell(1, 1, 1)}}, query.FromBreakdown, 416},
		{"queens:11", query.Question{Ask: query.AskCount}, query.FromRecord, 2680},
		{"queens:11", query.Question{Ask: query.AskCountClasses, Filter: query.Filter{Orbit: 4}}, query.FromRecord, 12},
		{"queens:8", query.Question{Ask: query.AskList, Window: query.Window{Offset: 90, Limit: 5}}, query.Jump, 0},
		{"queens:8", query.Question{Ask: query.AskClasses, Window: query.Window{Offset: 3, Limit: 2}}, query.Jump, 0},
		{"queens:8", query.Question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByOrbit}}, query.FromRecord, 0},
		{"queens:8", query.Question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByRow, Row: 1}}, query.FromBreakdown, 0},
		{"queens:8", query.Question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByRow, Row: 1}, Filter: query.Filter{Cells: cell(4, 4, 1)}}, query.BlockScan, 0},
	} {
		tg := open(t, tc.puzzle)
		plan, err := tg.Plan(ctx, tc.q)
		if err != nil {
			t.Fatalf("%s %+v: %v", tc.puzzle, tc.q, err)
		}
		if plan.Way != tc.way {
			t.Errorf("%s %+v: planned as %s, want %s", tc.puzzle, tc.q, plan.Way, tc.way)
		}
		if tc.q.Ask == query.AskCount || tc.q.Ask == query.AskCountClasses {
			if n, err := tg.Count(ctx, plan); err != nil || n != tc.count {
				t.Errorf("%s %+v: %d, %v; want %d", tc.puzzle, tc.q, n, err, tc.count)
			}
		}
		if r := tg.Explain(plan); r.Way != tc.way.String() || len(r.Detail) == 0 {
			t.Errorf("%s: explained as %+v", tc.puzzle, r)
		}
	}
	// A puzzle recorded by its counts answers what its record holds, and
	// refuses the rest.
	tg := open(t, "queens:11")
	_, err := tg.Plan(ctx, query.Question{Ask: query.AskList, Window: query.Window{Limit: 1}})
	if !errorsIsCountsOnly(err) {
		t.Errorf("list of a count: %v", err)
	}
}

func errorsIsCountsOnly(err error) bool {
	var c *query.CountsOnlyError
	return errors.As(err, &c)
}

// TestDirectJump lists pages of every stored puzzle by offset alone and
// compares them with the solutions in order.
func TestDirectJump(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"queens:10", "magic:4"} {
		tg := open(t, name)
		all := solveAll(t, tg.Puzzle)
		for _, page := range []query.Window{{Offset: 0, Limit: 3}, {Offset: 700, Limit: 30}, {Offset: int64(len(all)) - 1, Limit: 10}, {Offset: int64(len(all)), Limit: 1}} {
			plan, err := tg.Plan(ctx, query.Question{Ask: query.AskList, Window: page})
			if err != nil || plan.Way != query.Jump {
				t.Fatalf("%s %+v: %v, %v", name, page, plan, err)
			}
			var got [][]byte
			tg.List(ctx, plan, func(s query.Solution) error { got = append(got, s.Cells); return nil })
			var want [][]byte
			for k := page.Offset; k < min(int64(len(all)), page.Offset+page.Limit); k++ {
				want = append(want, all[k].cells)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %+v: %v, want %v", name, page, got, want)
			}
		}
		if s, err := tg.Solution(ctx, tg.Record.Solutions); err != nil || !bytes.Equal(s.Cells, all[len(all)-1].cells) {
			t.Errorf("%s: the last solution: %+v, %v", name, s, err)
		}
		if _, err := tg.Solution(ctx, tg.Record.Solutions+1); !errors.Is(err, query.ErrNoSolution) {
			t.Errorf("%s: a solution past the last: %v", name, err)
		}
	}
}

// TestScansOfFewClasses checks that a scan of a puzzle stored as its
// classes that asks for orbits below 8 or a symmetry type reads only those
// classes, says so, and counts as the solutions enumerated here do.
func TestScansOfFewClasses(t *testing.T) {
	ctx := context.Background()
	tg := open(t, "queens:12")
	all := solveAll(t, tg.Puzzle)
	few := tg.Record.Orbits[1] + tg.Record.Orbits[2] + tg.Record.Orbits[4]
	cell := []query.Cell{{Row: 2, Col: 4, Value: 1}}
	for _, tc := range []struct {
		name  string
		ask   query.Ask
		f     query.Filter
		reads int64
	}{
		{"orbit 4", query.AskCount, query.Filter{Orbit: 4, Cells: cell}, tg.Record.Orbits[4]},
		{"orbit 2 classes", query.AskCountClasses, query.Filter{Orbit: 2, Cells: cell}, tg.Record.Orbits[2]},
		{"rot180-only", query.AskCount, query.Filter{Props: canon.Rot180Only, Cells: cell}, tg.Record.Orbits[4]},
		{"list orbit 4", query.AskList, query.Filter{Orbit: 4}, tg.Record.Orbits[4]},
		{"orbit 1", query.AskList, query.Filter{Orbit: 1}, 0},
		{"orbit 8", query.AskCount, query.Filter{Orbit: 8, Cells: cell}, tg.Record.Classes},
		{"no orbit", query.AskCount, query.Filter{Cells: append(cell, query.Cell{Row: 5, Col: 2, Value: 1})}, tg.Record.Classes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := query.Question{Ask: tc.ask, Filter: tc.f, Window: query.Window{Limit: -1}}
			plan, err := tg.Plan(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if got := plan.Reads(); got != tc.reads || few == 0 {
				t.Errorf("reads %d classes, want %d (%d classes have fewer than 8 members)", got, tc.reads, few)
			}
			explained := strings.Join(tg.Explain(plan).Detail, "\n")
			wording := fmt.Sprintf("only the %d classes", tc.reads)
			if tc.reads == 0 {
				wording = "no class has the properties or orbit sizes asked for: nothing is read"
			}
			if tc.reads < tg.Record.Classes && !strings.Contains(explained, wording) {
				t.Errorf("explained as %q", explained)
			}
			var want int64
			classes := map[int64]bool{}
			for _, s := range all {
				if matches(tg.Puzzle, tc.f, s) {
					want++
					classes[s.class] = true
				}
			}
			var got int64
			switch tc.ask {
			case query.AskList:
				err = tg.List(ctx, plan, func(query.Solution) error { got++; return nil })
			case query.AskCountClasses:
				got, err = tg.Count(ctx, plan)
				want = int64(len(classes))
			default:
				got, err = tg.Count(ctx, plan)
			}
			if err != nil || got != want {
				t.Errorf("%d, %v; the solutions enumerated here give %d", got, err, want)
			}
		})
	}
}

// TestJumpsExplained checks what --explain says of an offset with no
// filter: a solution ID or a class ID, and nothing read past the end.
func TestJumpsExplained(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		puzzle string
		ask    query.Ask
		offset int64
		want   string
	}{
		{"queens:8", query.AskList, 90, "the offset is a solution ID: solutions 91 to 92 are read"},
		{"queens:8", query.AskList, 92, "past the last one: nothing is read"},
		{"queens:8", query.AskClasses, 12, "past the last one: nothing is read"},
		{"queens:12", query.AskList, 14199, "the offset is a solution ID, found by the members' numbering: member 8 of class 1787 onwards"},
		{"queens:12", query.AskList, 14200, "past the last one: nothing is read"},
		{"queens:12", query.AskClasses, 1786, "the offset is a class ID: classes 1787 to 1787 are read"},
	} {
		tg := open(t, tc.puzzle)
		plan, err := tg.Plan(ctx, query.Question{Ask: tc.ask, Window: query.Window{Offset: tc.offset, Limit: 5}})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(tg.Explain(plan).Detail, "\n"); plan.Way != query.Jump || !strings.Contains(got, tc.want) {
			t.Errorf("%s offset %d: %s, %q; want %q", tc.puzzle, tc.offset, plan.Way, got, tc.want)
		}
	}
}

// TestStatsOverAPrefix checks statistics whose filter fixes the first
// cells of a puzzle stored solution by solution: they read that range of
// solutions, and agree with the solutions enumerated here, class counts
// included; in both storages of queens.
func TestStatsOverAPrefix(t *testing.T) {
	ctx := context.Background()
	cells := func(rcv ...int) []query.Cell {
		var out []query.Cell
		for i := 0; i+2 < len(rcv); i += 3 {
			out = append(out, query.Cell{Row: rcv[i], Col: rcv[i+1], Value: rcv[i+2]})
		}
		return out
	}
	for _, tc := range []struct {
		puzzle string
		by     query.StatsBy
		f      query.Filter
		way    query.Way
	}{
		{"queens:10", query.StatsBy{Kind: query.ByRow, Row: 3}, query.Filter{Cells: cells(1, 2, 1, 2, 4, 1)}, query.BlockScan},
		{"queens:10", query.StatsBy{Kind: query.ByRow, Row: 3}, query.Filter{Cells: cells(1, 2, 1)}, query.BlockScan},
		{"queens:10", query.StatsBy{Kind: query.ByCol, Col: 4}, query.Filter{}, query.FromBreakdown},
		{"queens:10", query.StatsBy{Kind: query.ByRow, Row: 7}, query.Filter{Cells: cells(5, 5, 1)}, query.BlockScan},
		{"queens:10", query.StatsBy{Kind: query.ByCell, Row: 3, Col: 6}, query.Filter{Cells: cells(9, 9, 0)}, query.BlockScan},
		{"queens:10", query.StatsBy{Kind: query.ByCol, Col: 2}, query.Filter{Cells: cells(1, 2, 1)}, query.BlockScan}, // none
		{"magic:4", query.StatsBy{Kind: query.ByCell, Row: 2, Col: 3}, query.Filter{}, query.FromBreakdown},
		{"magic:4", query.StatsBy{Kind: query.ByCell, Row: 3, Col: 3}, query.Filter{Cells: cells(4, 4, 16)}, query.BlockScan},
		{"queens:10", query.StatsBy{Kind: query.ByOrbit}, query.Filter{Cells: cells(1, 2, 1)}, query.ClassScan}, // a range too large
		{"queens:10", query.StatsBy{Kind: query.ByOrbit}, query.Filter{Cells: cells(1, 3, 1, 2, 5, 1)}, query.BlockScan},
		{"queens:10", query.StatsBy{Kind: query.ByCell, Row: 5, Col: 5}, query.Filter{Cells: cells(1, 1, 1, 2, 3, 1, 7, 7, 0)}, query.BlockScan},
		{"queens:10", query.StatsBy{Kind: query.ByProp, Prop: canon.Asymmetric}, query.Filter{Cells: cells(1, 4, 1, 2, 1, 1), Orbit: 8}, query.BlockScan},
		{"magic:4", query.StatsBy{Kind: query.ByGroup}, query.Filter{Cells: cells(1, 1, 1, 1, 2, 2)}, query.BlockScan},
		{"magic:4", query.StatsBy{Kind: query.ByCell, Row: 4, Col: 4}, query.Filter{Cells: cells(1, 1, 2, 1, 2, 3)}, query.BlockScan},
		{"queens:12", query.StatsBy{Kind: query.ByRow, Row: 3}, query.Filter{Cells: cells(1, 2, 1)}, query.ClassScan}, // stored as its classes
		{"queens:12", query.StatsBy{Kind: query.ByCol, Col: 5}, query.Filter{Cells: cells(3, 4, 1)}, query.ClassScan},
		{"queens:12", query.StatsBy{Kind: query.ByCell, Row: 6, Col: 6}, query.Filter{Cells: cells(2, 5, 1, 7, 7, 1)}, query.ClassScan},
		{"queens:12", query.StatsBy{Kind: query.ByOrbit}, query.Filter{Cells: cells(1, 3, 1)}, query.ClassScan},
		{"queens:12", query.StatsBy{Kind: query.ByRow, Row: 9}, query.Filter{Cells: cells(4, 4, 0)}, query.ClassScan}, // not an equality: forms unpacked
	} {
		tg := open(t, tc.puzzle)
		plan, err := tg.Plan(ctx, query.Question{Ask: query.AskStats, By: tc.by, Filter: tc.f})
		if err != nil {
			t.Fatal(err)
		}
		if plan.Way != tc.way {
			t.Errorf("%s %+v: planned as %s, want %s", tc.puzzle, tc.by, plan.Way, tc.way)
		}
		rows, err := tg.Stats(ctx, plan)
		if err != nil {
			t.Fatal(err)
		}
		p, n := tg.Puzzle, tg.Puzzle.N
		want := map[int][2]int64{}
		classes := map[[2]int64]bool{}
		for _, s := range solveAll(t, p) {
			if !matches(p, tc.f, s) {
				continue
			}
			var v int
			switch tc.by.Kind {
			case query.ByRow:
				v = int(s.cells[tc.by.Row-1]) + 1
			case query.ByCol:
				v = bytes.IndexByte(s.cells, byte(tc.by.Col-1)) + 1
			case query.ByOrbit:
				v = s.orbit
			case query.ByGroup:
				v = s.props.DudeneyOf()
			case query.ByProp:
				if (s.props|canon.SymmetryType(s.orbit))&tc.by.Prop != 0 {
					v = 1
				}
			case query.ByCell:
				x := (tc.by.Row-1)*n + tc.by.Col - 1
				if p.Kind == canon.Magic {
					v = int(s.cells[x])
				} else if int(s.cells[x/n]) == x%n {
					v = 1
				}
			}
			a := want[v]
			a[0]++
			if !classes[[2]int64{int64(v), s.class}] {
				classes[[2]int64{int64(v), s.class}] = true
				a[1]++
			}
			want[v] = a
		}
		got := map[int][2]int64{}
		for _, r := range rows {
			got[r.Value] = [2]int64{r.Solutions, r.Classes}
		}
		if len(want) == 0 || !maps.Equal(got, want) {
			t.Errorf("%s by %+v, %+v: got %v, want %v", tc.puzzle, tc.by, tc.f, got, want)
		}
	}
}

// TestDeepPagesOfClasses pages through the classes-only queens:12 with
// filters, skipping spans of a few classes at a time (7 spans, each once;
// twice with SOLCAT_LONG=1) as deep pages of the large catalogs do, and
// checks every page against the whole listing.
func TestDeepPagesOfClasses(t *testing.T) {
	ctx := context.Background()
	tg := open(t, "queens:12")
	r := rand.New(rand.NewPCG(3, 4))
	filters := 7
	if !testing.Short() && os.Getenv("SOLCAT_LONG") != "" {
		filters = 14
	}
	for i := range filters {
		f := randomFilter(r, tg.Puzzle, tg.Record.Classes)
		f.Class = 0
		if len(f.Cells) == 0 {
			f.Cells = []query.Cell{{Row: 1 + i%12, Col: 1 + i%5, Value: 1}}
		}
		list := func(page query.Window) (ids []int64) {
			plan, err := tg.Plan(ctx, query.Question{Ask: query.AskList, Filter: f, Window: page})
			if err == nil {
				err = tg.List(ctx, plan, func(s query.Solution) error { ids = append(ids, s.ID); return nil })
			}
			if err != nil {
				t.Fatal(err)
			}
			return ids
		}
		classes := func(page query.Window) (ids []int64) {
			plan, err := tg.Plan(ctx, query.Question{Ask: query.AskClasses, Filter: f, Window: page})
			if err == nil {
				err = tg.Classes(ctx, plan, func(c query.Class) error { ids = append(ids, c.ID); return nil })
			}
			if err != nil {
				t.Fatal(err)
			}
			return ids
		}
		defer query.SetSkipSpan(1 + int64(i%7)*13)()
		allMembers, allClasses := list(query.Window{Limit: -1}), classes(query.Window{Limit: -1})
		for _, all := range []struct {
			what string
			ids  []int64
			page func(query.Window) []int64
		}{{"list", allMembers, list}, {"classes", allClasses, classes}} {
			for _, offset := range []int64{1, 2, int64(len(all.ids)) / 3, int64(len(all.ids)) - 1, int64(len(all.ids)), int64(len(all.ids)) + 5} {
				offset = max(offset, 0)
				got := all.page(query.Window{Offset: offset, Limit: 4})
				want := all.ids[min(offset, int64(len(all.ids))):]
				want = want[:min(len(want), 4)]
				if !slices.Equal(got, want) {
					t.Errorf("%s %s at offset %d: %v, want %v", all.what, f.String(tg.Puzzle), offset, got, want)
				}
			}
		}
	}
}
