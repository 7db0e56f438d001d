package builder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/enumerate"
	"solcat/query"
	"solcat/query/verify"
)

// buildQueens builds queens:n into db: stored solution by solution, or as
// its classes only (the layout of queens:18 and 19) from the given units.
// A hook, if not nil, sees each phase of the classes-only build and may
// cancel it.
func buildQueens(t *testing.T, db string, n, workers int, asClasses bool, units []enumerate.QueensUnit, hook func(phase string, done int64, cancel func())) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if hook != nil {
		queensClassesHook = func(phase string, done int64) { hook(phase, done, cancel) }
		defer func() { queensClassesHook = func(string, int64) {} }()
	}
	cat, err := catalog.Create(ctx, db, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	b := &Builder{Cat: cat}
	p := canon.Puzzle{Kind: canon.Queens, N: n}
	o := Options{Workers: workers, AsClasses: asClasses}
	if asClasses && units != nil {
		_, err = b.storeQueensClasses(ctx, p, o, units, false)
	} else {
		_, err = b.Build(ctx, p, o)
	}
	return err
}

// queensTarget opens db read-only and binds queens:n; done closes it.
func queensTarget(t *testing.T, db string, n int) (*query.BoundPuzzle, func()) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	p := canon.Puzzle{Kind: canon.Queens, N: n}
	rec, ok, err := cat.Puzzle(ctx, p.String())
	if err != nil || !ok {
		t.Fatalf("no %s record in %s: %v", p, db, err)
	}
	tg, err := query.Bind(ctx, cat, p, rec)
	if err != nil {
		t.Fatal(err)
	}
	return tg, func() { cat.Close() }
}

func listAll(t *testing.T, tg *query.BoundPuzzle, q query.Question) []query.Solution {
	t.Helper()
	var out []query.Solution
	q.Ask = query.AskList
	if err := tg.List(context.Background(), plan(t, tg, q), func(s query.Solution) error { out = append(out, s); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func classesAll(t *testing.T, tg *query.BoundPuzzle, q query.Question) []query.Class {
	t.Helper()
	var out []query.Class
	q.Ask = query.AskClasses
	if err := tg.Classes(context.Background(), plan(t, tg, q), func(c query.Class) error { out = append(out, c); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestQueensClassesMatchStored builds queens:1 to 12 (to 13 with
// SOLCAT_LONG=1) both ways, the classes-only layout in units of one block
// so that every size commits several, and compares them: the same classes
// (IDs, canonical forms, orbits, properties), the same members class by
// class (numbered class by class in the classes-only layout), the same
// answers to random questions, each answered the way the layout plans it,
// and verify finds nothing.
func TestQueensClassesMatchStored(t *testing.T) {
	defer func(f func(int64) int64) { queensClassesUnitRows = f }(queensClassesUnitRows)
	queensClassesUnitRows = func(int64) int64 { return 1 }
	ctx := context.Background()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(19, 18))
	sizes := []int{1, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	if !testing.Short() && os.Getenv("SOLCAT_LONG") != "" {
		sizes = append(sizes, 13)
	}
	for _, n := range sizes {
		stored, classes := filepath.Join(dir, fmt.Sprintf("stored%d.db", n)), filepath.Join(dir, fmt.Sprintf("classes%d.db", n))
		if err := buildQueens(t, stored, n, 2, false, nil, nil); err != nil {
			t.Fatal(err)
		}
		if err := buildQueens(t, classes, n, 2, true, nil, nil); err != nil {
			t.Fatal(err)
		}
		a, doneA := queensTarget(t, stored, n)
		b, doneB := queensTarget(t, classes, n)
		t.Run(fmt.Sprint(n), func(t *testing.T) { compareQueensLayouts(t, ctx, rng, a, b) })
		doneA()
		doneB()
	}
}

func compareQueensLayouts(t *testing.T, ctx context.Context, rng *rand.Rand, a, b *query.BoundPuzzle) {
	n := a.Puzzle.N
	ra, rb := a.Record, b.Record
	if ra.Storage != catalog.StorageSolutions || rb.Storage != catalog.StorageClasses {
		t.Fatalf("storage %s and %s", ra.Storage, rb.Storage)
	}
	if ra.Solutions != rb.Solutions || ra.Classes != rb.Classes || ra.Orbits != rb.Orbits || !rb.Verified {
		t.Errorf("records differ: %+v\n%+v", ra, rb)
	}
	// The classes, in ID order.
	ca, cb := classesAll(t, a, query.Question{Window: query.Window{Limit: -1}}), classesAll(t, b, query.Question{Window: query.Window{Limit: -1}})
	if int64(len(cb)) != rb.Classes || len(ca) != len(cb) {
		t.Fatalf("%d and %d classes listed, %d recorded", len(ca), len(cb), rb.Classes)
	}
	for i := range ca {
		if ca[i].ID != cb[i].ID || !bytes.Equal(ca[i].Canonical, cb[i].Canonical) || ca[i].Orbit != cb[i].Orbit || ca[i].Props != cb[i].Props {
			t.Fatalf("class %d: %+v stored, %+v as classes", i+1, ca[i], cb[i])
		}
	}
	// The members: class by class, IDs from 1 without a gap, each class's
	// members in lexicographic order, each the stored solution with the
	// same class and symmetry.
	sa, sb := listAll(t, a, query.Question{Window: query.Window{Limit: -1}}), listAll(t, b, query.Question{Window: query.Window{Limit: -1}})
	if int64(len(sb)) != rb.Solutions || len(sa) != len(sb) {
		t.Fatalf("%d and %d solutions listed, %d recorded", len(sa), len(sb), rb.Solutions)
	}
	byCells := map[string]query.Solution{}
	for _, s := range sa {
		byCells[string(s.Cells)] = s
	}
	members := map[int64]int{}
	for i, s := range sb {
		want, ok := byCells[string(s.Cells)]
		switch {
		case s.ID != int64(i)+1:
			t.Fatalf("member %d has ID %d", i+1, s.ID)
		case !ok || want.ClassID != s.ClassID || want.Symmetry != s.Symmetry || want.Orbit != s.Orbit || want.Props != s.Props:
			t.Fatalf("member %d: %+v, stored %+v", s.ID, s, want)
		case i > 0 && (sb[i-1].ClassID > s.ClassID || sb[i-1].ClassID == s.ClassID && bytes.Compare(sb[i-1].Cells, s.Cells) >= 0):
			t.Fatalf("member %d (class %d) does not follow member %d (class %d)", s.ID, s.ClassID, s.ID-1, sb[i-1].ClassID)
		}
		delete(byCells, string(s.Cells))
		members[s.ClassID]++
	}
	for _, c := range cb {
		if members[c.ID] != c.Orbit {
			t.Fatalf("class %d has %d members, orbit %d", c.ID, members[c.ID], c.Orbit)
		}
	}
	// Direct jumps: a page at any offset, and one solution by its ID.
	for range 20 {
		off := rng.Int64N(rb.Solutions)
		limit := rng.Int64N(20) + 1
		got := listAll(t, b, query.Question{Window: query.Window{Offset: off, Limit: limit}})
		want := sb[off:min(off+limit, rb.Solutions)]
		if len(got) != len(want) {
			t.Fatalf("list at offset %d: %d rows, want %d", off, len(got), len(want))
		}
		for k := range got {
			if got[k].ID != want[k].ID || !bytes.Equal(got[k].Cells, want[k].Cells) {
				t.Fatalf("list at offset %d, row %d: %+v, want %+v", off, k, got[k], want[k])
			}
		}
		if s, err := b.Solution(ctx, off+1); err != nil || s.ID != off+1 || !bytes.Equal(s.Cells, sb[off].Cells) || s.ClassID != sb[off].ClassID {
			t.Fatalf("solution %d: %+v, %v; want %+v", off+1, s, err, sb[off])
		}
		if p := plan(t, b, query.Question{Ask: query.AskList, Window: query.Window{Offset: off, Limit: limit}}); p.Way != query.Jump {
			t.Fatalf("an offset alone is planned as %s", p.Way)
		}
	}
	// The members of one class, as show lists them.
	k := rng.Int64N(rb.Classes) + 1
	got := listAll(t, b, query.Question{Filter: query.Filter{Class: k}, Window: query.Window{Limit: -1}})
	if len(got) != members[k] || got[0].ClassID != k {
		t.Errorf("class %d: %d members listed, %d expected", k, len(got), members[k])
	}
	// Random questions, answered from the stored solutions and from the
	// classes.
	for range 40 {
		f := randomQueensFilter(rng, n, rb.Classes)
		for _, ask := range []query.Ask{query.AskCount, query.AskCountClasses} {
			pa, pb := plan(t, a, query.Question{Ask: ask, Filter: f}), plan(t, b, query.Question{Ask: ask, Filter: f})
			wa, err1 := a.Count(ctx, pa)
			wb, err2 := b.Count(ctx, pb)
			if err1 != nil || err2 != nil || wa != wb {
				t.Fatalf("count %s (ask %d): %d (%s), %v stored; %d (%s), %v as classes", f.String(a.Puzzle), ask, wa, pa.Way, err1, wb, pb.Way, err2)
			}
			empty := f.Impossible(a.Puzzle) != "" // answered none without reading
			if empty != (pb.Way == query.ProvedEmpty) || !empty && pb.Way != query.FromRecord && pb.Way != query.FromBreakdown && pb.Way != query.ClassScan {
				t.Errorf("count %s planned as %s", f.String(a.Puzzle), pb.Way)
			}
			if !empty && len(f.Cells) == 1 && f.Class == 0 && f.Orbit == 0 && f.Props == 0 && !f.UpToSymmetry && pb.Way != query.FromBreakdown {
				t.Errorf("one cell, %s, planned as %s", f.String(a.Puzzle), pb.Way)
			}
		}
		la := listAll(t, a, query.Question{Filter: f, Window: query.Window{Limit: -1}})
		lb := listAll(t, b, query.Question{Filter: f, Window: query.Window{Limit: -1}})
		if len(la) != len(lb) {
			t.Fatalf("list %s: %d stored, %d as classes", f.String(a.Puzzle), len(la), len(lb))
		}
		for _, s := range lb {
			if !bytes.Equal(s.Cells, sb[s.ID-1].Cells) || s.ClassID != sb[s.ID-1].ClassID {
				t.Fatalf("list %s: solution %d is %v, member %d is %v", f.String(a.Puzzle), s.ID, s.Cells, s.ID, sb[s.ID-1].Cells)
			}
		}
		key := func(s query.Solution) string { return string(s.Cells) }
		if !slices.Equal(sortedKeys(la, key), sortedKeys(lb, key)) {
			t.Fatalf("list %s: other solutions", f.String(a.Puzzle))
		}
		ka, kb := classesAll(t, a, query.Question{Filter: f, Window: query.Window{Limit: -1}}), classesAll(t, b, query.Question{Filter: f, Window: query.Window{Limit: -1}})
		if len(ka) != len(kb) {
			t.Fatalf("classes %s: %d stored, %d as classes", f.String(a.Puzzle), len(ka), len(kb))
		}
		for i := range ka {
			if ka[i].ID != kb[i].ID || ka[i].Matching != kb[i].Matching || ka[i].Orbit != kb[i].Orbit {
				t.Fatalf("classes %s: %+v stored, %+v as classes", f.String(a.Puzzle), ka[i], kb[i])
			}
		}
		r, c := rng.IntN(n)+1, rng.IntN(n)+1
		bys := []query.StatsBy{{Kind: query.ByCell, Row: r, Col: c}, {Kind: query.ByRow, Row: r}, {Kind: query.ByOrbit}, {Kind: query.ByProp, Prop: canon.Rot180Only}}
		for _, by := range bys {
			for _, filter := range []query.Filter{f, {}} {
				q := query.Question{Ask: query.AskStats, Filter: filter, By: by}
				pa, pb := plan(t, a, q), plan(t, b, q)
				wa, err1 := a.Stats(ctx, pa)
				wb, err2 := b.Stats(ctx, pb)
				if err1 != nil || err2 != nil || !slices.Equal(wa, wb) {
					t.Fatalf("stats by %+v, %s: %+v, %v stored; %+v (%s), %v as classes", by, filter.String(a.Puzzle), wa, err1, wb, pb.Way, err2)
				}
				if filter.IsZero() && pb.Way != query.FromRecord && pb.Way != query.FromBreakdown {
					t.Errorf("stats by %+v without a filter planned as %s", by, pb.Way)
				}
			}
		}
	}
	// The heat map: recorded at build time.
	q := query.Question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByHeatmap}}
	pa, pb := plan(t, a, q), plan(t, b, q)
	ha, err1 := a.Heatmap(ctx, pa)
	hb, err2 := b.Heatmap(ctx, pb)
	if err1 != nil || err2 != nil || pb.Way != query.FromBreakdown || fmt.Sprint(ha) != fmt.Sprint(hb) {
		t.Errorf("heat map: %v, %v stored; %v (%s), %v as classes", ha, err1, hb, pb.Way, err2)
	}
	var problems []string
	if err := verify.Puzzle(ctx, b.Catalog(), b.Puzzle, b.Record, func(p string) { problems = append(problems, p) }); err != nil || len(problems) > 0 {
		t.Errorf("verify: %v %q", err, problems)
	}
}

func sortedKeys(sols []query.Solution, key func(query.Solution) string) []string {
	out := make([]string, len(sols))
	for i, s := range sols {
		out[i] = key(s)
	}
	slices.Sort(out)
	return out
}

// randomQueensFilter makes a question: 1 to 3 cells (a queen or an empty
// square, often on the first rows so prefixes come up), sometimes an orbit,
// a symmetry type, a class, up to symmetry.
func randomQueensFilter(rng *rand.Rand, n int, classes int64) query.Filter {
	var f query.Filter
	for range rng.IntN(3) + 1 {
		row := rng.IntN(n) + 1
		if rng.IntN(2) == 0 {
			row = rng.IntN(min(n, 2)) + 1
		}
		v := 1
		if rng.IntN(4) == 0 {
			v = 0
		}
		f.Cells = append(f.Cells, query.Cell{Row: row, Col: rng.IntN(n) + 1, Value: v})
	}
	switch rng.IntN(8) {
	case 0:
		f.Orbit = []int{2, 4, 8}[rng.IntN(3)]
	case 1:
		f.Props = []canon.Property{canon.Rot90Symmetric, canon.Rot180Only, canon.Asymmetric}[rng.IntN(3)]
	case 2:
		f.Class = rng.Int64N(classes) + 1
	case 3:
		f.UpToSymmetry = true
	case 4:
		f.Cells = f.Cells[:0] // symmetry types and orbits alone
		f.Props = []canon.Property{canon.Rot90Symmetric, canon.Rot180Only, canon.Asymmetric}[rng.IntN(3)]
		f.Orbit = []int{0, 4, 8}[rng.IntN(3)]
	}
	if rng.IntN(6) == 0 && len(f.Cells) > 0 {
		f.Cells = f.Cells[:1] // one cell, which the build recorded
		f.Class, f.Orbit, f.Props, f.UpToSymmetry = 0, 0, 0, false
	}
	return f
}

// TestQueensClassesResume stops a classes-only build of queens:12 in
// each phase (writing the classes, in its first and in a later unit, and
// after the last class, before the counts are checked) and resumes it: the
// same content as an uninterrupted build, whatever the worker count, and
// the status of the stopped build says how far it got.
func TestQueensClassesResume(t *testing.T) {
	defer func(f func(int64) int64) { queensClassesUnitRows = f }(queensClassesUnitRows)
	queensClassesUnitRows = func(int64) int64 { return 300 } // a commit every two blocks of 254
	ctx := context.Background()
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	if err := buildQueens(t, whole, 12, 2, true, nil, nil); err != nil {
		t.Fatal(err)
	}
	resumed := filepath.Join(dir, "resumed.db")
	p := canon.Puzzle{Kind: canon.Queens, N: 12}
	for _, stop := range []struct {
		phase string
		at    int64
		saved int64 // classes saved when it stops
	}{{"classes", 100, 0}, {"classes", 700, 508}, {"classes", 1500, 1016}, {"check", 1787, 1524}} {
		err := buildQueens(t, resumed, 12, 2, true, nil, func(phase string, done int64, cancel func()) {
			if phase == stop.phase && done == stop.at {
				cancel()
			}
		})
		var s *StoppedError
		if !errors.As(err, &s) || !errors.Is(err, ErrInterrupted) {
			t.Fatalf("stopped in %s at %d: %v", stop.phase, stop.at, err)
		}
		cat, err := catalog.Open(ctx, resumed)
		if err != nil {
			t.Fatal(err)
		}
		u, ok, err := Status(ctx, cat, resumed, p)
		if _, has, _ := cat.Puzzle(ctx, p.String()); has {
			t.Errorf("queens:12 recorded after a stop in %s", stop.phase)
		}
		cat.Close()
		if err != nil || !ok || u.Running || u.Done != stop.saved || u.Total != 1787 {
			t.Errorf("status after a stop in %s at %d: %+v, %v, %v; want %d of 1787 saved", stop.phase, stop.at, u, ok, err, stop.saved)
		}
	}
	if err := buildQueens(t, resumed, 12, 2, true, nil, nil); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "one.db")
	if err := buildQueens(t, one, 12, 1, true, nil, nil); err != nil {
		t.Fatal(err)
	}
	hash := func(db string) string {
		tg, done := queensTarget(t, db, 12)
		defer done()
		return tg.Record.ContentHash
	}
	if h := hash(whole); h != hash(resumed) || h != hash(one) || len(h) != 64 {
		t.Errorf("content: whole %s, resumed %s, one worker %s", h, hash(resumed), hash(one))
	}
	a, done := queensTarget(t, resumed, 12)
	defer done()
	var problems []string
	if err := verify.Puzzle(ctx, a.Catalog(), a.Puzzle, a.Record, func(p string) { problems = append(problems, p) }); err != nil || len(problems) > 0 {
		t.Errorf("verify the resumed build: %v %q", err, problems)
	}
}

// TestQueensClassesSample builds queens:13 from a few of its units, as a
// sample whose counts nobody published: the classes are those the units'
// search finds, in order.
func TestQueensClassesSample(t *testing.T) {
	units := enumerate.QueensClassUnits(13)
	sample := []enumerate.QueensUnit{units[3], units[100], units[200]}
	db := filepath.Join(t.TempDir(), "sample.db")
	if err := buildQueens(t, db, 13, 2, true, sample, nil); err != nil {
		t.Fatal(err)
	}
	var classes, solutions int64
	for _, u := range sample {
		c := enumerate.CountQueensUnit(13, u)
		solutions += c.Solutions()
		classes += c.Classes()
	}
	tg, done := queensTarget(t, db, 13)
	defer done()
	cs := classesAll(t, tg, query.Question{Window: query.Window{Limit: -1}})
	if int64(len(cs)) != classes || tg.Record.Solutions != solutions || tg.Record.Verified || classes < 10 {
		t.Fatalf("sample: %d classes, %d solutions, verified %v; the units have %d and %d", len(cs), tg.Record.Solutions, tg.Record.Verified, classes, solutions)
	}
	for i, c := range cs {
		u, ok := enumerate.QueensUnitOf(units, c.Canonical)
		if !ok || !slices.ContainsFunc(sample, func(s enumerate.QueensUnit) bool { return bytes.Equal(s.Prefix, units[u].Prefix) }) {
			t.Errorf("class %d, %v, is in no unit of the sample", i+1, c.Canonical)
		}
		if i > 0 && bytes.Compare(cs[i-1].Canonical, c.Canonical) >= 0 {
			t.Errorf("class %d does not follow class %d", i+1, i)
		}
	}
}
