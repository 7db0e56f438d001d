package builder

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/enumerate"
	"solcat/query"
	"solcat/query/verify"
)

// magic5TestUnits are a few units of the order-5 build: centre 1 (with
// complements, centre 25) and a centre-13 unit whose diagonals pair up
// (where the associative and self-complementary classes are).
func magic5TestUnits() []enumerate.Magic5Unit {
	units := enumerate.Magic5Units()
	out := []enumerate.Magic5Unit{units[0], units[7]}
	for _, u := range units {
		if u.Centre == 13 && int(u.Diag[0]+u.Diag[3]) == 26 && int(u.Diag[1]+u.Diag[2]) == 26 {
			return append(out, u)
		}
	}
	panic("no associative unit")
}

var magic5 = canon.Puzzle{Kind: canon.Magic, N: 5}

// buildMagic5Sample stores magic:5 from a few units into db; stopPhase, if
// not empty, interrupts the build at that phase and count.
func buildMagic5Sample(t *testing.T, db string, workers int, stopPhase string, stopAt int64) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	magic5Hook = func(phase string, done int64) {
		if phase == stopPhase && done == stopAt {
			cancel()
		}
	}
	defer func() { magic5Hook = func(string, int64) {} }()
	cat, err := catalog.Create(ctx, db, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	b := &Builder{Cat: cat}
	_, err = b.storeMagic5(ctx, magic5, Options{Workers: workers}, magic5TestUnits(), false)
	return err
}

// target opens db read-only and binds magic:5; done closes it.
func target(t *testing.T, db string) (*query.BoundPuzzle, func()) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	rec, ok, err := cat.Puzzle(ctx, "magic:5")
	if err != nil || !ok {
		t.Fatalf("no magic:5 record: %v", err)
	}
	tg, err := query.Bind(ctx, cat, magic5, rec)
	if err != nil {
		t.Fatal(err)
	}
	return tg, func() { cat.Close() }
}

func plan(t *testing.T, tg *query.BoundPuzzle, q query.Question) *query.Plan {
	t.Helper()
	p, err := tg.Plan(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMagic5StoredSample builds magic:5 from a few units, interrupted in
// each phase and resumed, checks it against an uninterrupted build, and
// checks the queries over the stored classes against the members counted
// here directly.
func TestMagic5StoredSample(t *testing.T) {
	defer func(rows int64) { magic5UnitRows = rows }(magic5UnitRows)
	magic5UnitRows = 10000
	ctx := context.Background()
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	if err := buildMagic5Sample(t, whole, 2, "", 0); err != nil {
		t.Fatal(err)
	}
	resumed := filepath.Join(dir, "resumed.db")
	for _, stop := range []struct {
		phase string
		at    int64
	}{{"forms", 2}, {"insert", 25000}, {"insert", 61234}} {
		err := buildMagic5Sample(t, resumed, 2, stop.phase, stop.at)
		var s *StoppedError
		if !errors.As(err, &s) || !errors.Is(err, ErrInterrupted) {
			t.Fatalf("stopped in %s at %d: %v", stop.phase, stop.at, err)
		}
		cat, err := catalog.Open(ctx, resumed)
		if err != nil {
			t.Fatal(err)
		}
		u, ok, err := Status(ctx, cat, resumed, magic5)
		cat.Close()
		switch {
		case err != nil || !ok || u.Running:
			t.Errorf("status after a stop in %s: %+v, %v, %v", stop.phase, u, ok, err)
		case stop.phase == "forms" && (!u.Search || u.Done != 2 || u.Total != 3636): // all units count
			t.Errorf("status in the class search: %+v", u)
		case stop.phase == "insert" && (u.Search || u.Done == 0):
			t.Errorf("status in the insert: %+v", u)
		}
	}
	if err := buildMagic5Sample(t, resumed, 2, "", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(resumed + ".sort"); !os.IsNotExist(err) {
		t.Errorf("the sort folder is still there: %v", err)
	}
	hash := func(db string) string {
		tg, done := target(t, db)
		defer done()
		return tg.Record.ContentHash
	}
	if hash(whole) != hash(resumed) {
		t.Errorf("resumed build differs: %s vs %s", hash(resumed), hash(whole))
	}
	oneWorker := filepath.Join(dir, "one.db")
	if err := buildMagic5Sample(t, oneWorker, 1, "", 0); err != nil {
		t.Fatal(err)
	}
	if hash(whole) != hash(oneWorker) {
		t.Errorf("a 1-worker build differs: %s vs %s", hash(oneWorker), hash(whole))
	}

	// The members, expanded here from the class forms the search gives.
	cz := canon.NewImages(magic5)
	images := canon.NewImages(magic5)
	var forms [][]byte
	units := magic5TestUnits()
	enumerate.Magic5ClassForms(ctx, units, []int{0, 1, 2}, 1, func(_ int, f enumerate.Magic5Forms) error {
		for _, k := range f.Forms {
			var c [25]byte
			canon.Unpack25(k, &c)
			forms = append(forms, c[:])
		}
		return nil
	})
	slices.SortFunc(forms, bytes.Compare)
	var members [][]byte // class by class, lexicographic within a class: list's order
	for _, f := range forms {
		if g := cz.Canonical(f).Canonical; !bytes.Equal(g, f) {
			t.Fatalf("%v is not canonical", f)
		}
		var ms [][]byte
		images.Distinct(f, func(_ canon.Symmetry, img []byte) error {
			ms = append(ms, slices.Clone(img))
			return nil
		})
		slices.SortFunc(ms, bytes.Compare)
		members = append(members, ms...)
	}
	// A match is asked of member k, members[k].
	count := func(match func(k int) bool) (squares, classes int64) {
		for i := 0; i < len(members); i += 8 {
			hit := false
			for k := i; k < i+8; k++ {
				if match(k) {
					squares++
					hit = true
				}
			}
			if hit {
				classes++
			}
		}
		return
	}
	// Each member's properties, computed once: the general computation
	// is the slow part of a count.
	memberProps := make([]canon.Property, len(members))
	for k, m := range members {
		memberProps[k] = magic5.Properties(m)
	}
	props := func(want canon.Property) func(k int) bool {
		return func(k int) bool { return memberProps[k]&want == want }
	}
	cell := func(r, c int, v byte) func(k int) bool {
		return func(k int) bool { return members[k][(r-1)*5+c-1] == v }
	}
	both := func(a, b func(int) bool) func(int) bool { return func(k int) bool { return a(k) && b(k) } }
	cells := func(cs ...query.Cell) []query.Cell { return cs }
	tg, done := target(t, whole)
	defer done()
	for _, tc := range []struct {
		name  string
		f     query.Filter
		way   query.Way
		match func(k int) bool
	}{
		{"one cell", query.Filter{Cells: cells(query.Cell{Row: 1, Col: 1, Value: 2})}, query.FromBreakdown, cell(1, 1, 2)},
		{"another cell", query.Filter{Cells: cells(query.Cell{Row: 2, Col: 3, Value: 25})}, query.FromBreakdown, cell(2, 3, 25)},
		{"two cells", query.Filter{Cells: cells(query.Cell{Row: 1, Col: 1, Value: 2}, query.Cell{Row: 5, Col: 5, Value: 24})}, query.ClassScan, both(cell(1, 1, 2), cell(5, 5, 24))},
		{"a prefix", query.Filter{Cells: cells(query.Cell{Row: 1, Col: 1, Value: 2}, query.Cell{Row: 1, Col: 2, Value: 3})}, query.ClassScan, both(cell(1, 1, 2), cell(1, 2, 3))}, // IDs are not lexicographic here
		{"centre and corner", query.Filter{Cells: cells(query.Cell{Row: 3, Col: 3, Value: 13}, query.Cell{Row: 5, Col: 5, Value: 3})}, query.ClassScan, both(cell(3, 3, 13), cell(5, 5, 3))},
		{"associative", query.Filter{Props: canon.Associative}, query.FromBreakdown, props(canon.Associative)},
		{"self-complementary", query.Filter{Props: canon.SelfComplementary}, query.FromBreakdown, props(canon.SelfComplementary)},
		{"associative and a cell", query.Filter{Props: canon.Associative, Cells: cells(query.Cell{Row: 1, Col: 2, Value: 2})}, query.ClassScan, both(props(canon.Associative), cell(1, 2, 2))},
		{"a class and a cell", query.Filter{Class: 17, Cells: cells(query.Cell{Row: 1, Col: 1, Value: int(members[16*8][0])})}, query.ClassScan, func(k int) bool {
			m := members[k]
			return bytes.Equal(cz.Canonical(m).Canonical, forms[16]) && m[0] == members[16*8][0]
		}},
	} {
		squares, classes := count(tc.match)
		for ask, want := range map[query.Ask]int64{query.AskCount: squares, query.AskCountClasses: classes} {
			p := plan(t, tg, query.Question{Ask: ask, Filter: tc.f})
			got, err := tg.Count(ctx, p)
			if err != nil || got != want || p.Way != tc.way {
				t.Errorf("%s, ask %d: %d by %s, %v; want %d by %s", tc.name, ask, got, p.Way, err, want, tc.way)
			}
		}
	}
	if squares, _ := count(func(int) bool { return true }); squares != 8*int64(len(forms)) {
		t.Fatalf("%d members of %d classes", squares, len(forms))
	}

	// list: members class by class, IDs 8(k-1)+rank; an offset alone jumps.
	list := func(q query.Question) []query.Solution {
		var out []query.Solution
		q.Ask = query.AskList
		if err := tg.List(ctx, plan(t, tg, q), func(s query.Solution) error { out = append(out, s); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, pg := range []query.Window{{Offset: 5, Limit: 6}, {Offset: 8, Limit: 3}, {Offset: int64(len(members)) - 2, Limit: 5}, {Offset: 0, Limit: 17}} {
		got := list(query.Question{Window: pg})
		want := members[pg.Offset:min(int64(len(members)), pg.Offset+pg.Limit)]
		if len(got) != len(want) {
			t.Errorf("list %+v: %d rows, want %d", pg, len(got), len(want))
			continue
		}
		for k, s := range got {
			if s.ID != pg.Offset+int64(k)+1 || !bytes.Equal(s.Cells, want[k]) {
				t.Errorf("list %+v row %d: id %d %v, want id %d %v", pg, k, s.ID, s.Cells, pg.Offset+int64(k)+1, want[k])
			}
		}
	}
	if p := plan(t, tg, query.Question{Ask: query.AskList, Window: query.Window{Offset: 5, Limit: 6}}); p.Way != query.Jump {
		t.Errorf("an offset alone is planned as %s", p.Way)
	}
	// A filtered list keeps the members' IDs.
	want, _ := count(both(cell(1, 1, 2), cell(5, 5, 24)))
	got := list(query.Question{Filter: query.Filter{Cells: cells(query.Cell{Row: 1, Col: 1, Value: 2}, query.Cell{Row: 5, Col: 5, Value: 24})}, Window: query.Window{Limit: -1}})
	if int64(len(got)) != want {
		t.Errorf("filtered list: %d rows, want %d", len(got), want)
	}
	for _, s := range got {
		if !bytes.Equal(members[s.ID-1], s.Cells) {
			t.Errorf("filtered list: solution %d is %v, member %d is %v", s.ID, s.Cells, s.ID, members[s.ID-1])
		}
	}
	// One solution by its ID, as show --solution asks.
	if s, err := tg.Solution(ctx, 11); err != nil || !bytes.Equal(s.Cells, members[10]) || s.ClassID != 2 {
		t.Errorf("solution 11: %+v, %v", s, err)
	}
	// stats by a cell other than the centre: a scan; by the centre: recorded.
	for _, by := range []query.StatsBy{{Kind: query.ByCell, Row: 2, Col: 2}, {Kind: query.ByCell, Row: 3, Col: 3}, {Kind: query.ByCell, Row: 1, Col: 1}} {
		rows, err := tg.Stats(ctx, plan(t, tg, query.Question{Ask: query.AskStats, By: by}))
		if err != nil {
			t.Fatal(err)
		}
		// count(cell(by.Row, by.Col, v)) for every value v, in one pass.
		var squares, classes [26]int64
		for i := 0; i < len(members); i += 8 {
			var hit [26]bool
			for _, m := range members[i : i+8] {
				v := m[(by.Row-1)*5+by.Col-1]
				squares[v]++
				hit[v] = true
			}
			for v, h := range hit {
				if h {
					classes[v]++
				}
			}
		}
		var wantRows []query.StatsRow
		for v := 1; v <= 25; v++ {
			if squares[v] > 0 {
				wantRows = append(wantRows, query.StatsRow{Value: v, Solutions: squares[v], Classes: classes[v]})
			}
		}
		if len(rows) != len(wantRows) {
			t.Errorf("stats by %+v: %d values, want %d", by, len(rows), len(wantRows))
			continue
		}
		for i := range rows {
			if rows[i].Value != wantRows[i].Value || rows[i].Solutions != wantRows[i].Solutions || rows[i].Classes != wantRows[i].Classes {
				t.Errorf("stats by %+v: %+v, want %+v", by, rows[i], wantRows[i])
			}
		}
	}
	// classes, and the refusals of Dudeney groups.
	var classes []query.Class
	tg.Classes(ctx, plan(t, tg, query.Question{Ask: query.AskClasses, Window: query.Window{Limit: 2}}), func(c query.Class) error { classes = append(classes, c); return nil })
	if len(classes) != 2 || !bytes.Equal(classes[1].Canonical, forms[1]) || classes[1].Orbit != 8 {
		t.Errorf("classes: %+v", classes)
	}
	if _, err := tg.Plan(ctx, query.Question{Ask: query.AskCount, Filter: query.Filter{Props: canon.Dudeney(1)}}); !errors.Is(err, query.ErrFilter) || !strings.Contains(err.Error(), "order 4 only") {
		t.Errorf("a Dudeney group of magic:5: %v", err)
	}
	// verify: a sample has not the published counts; that must be the only
	// problem. Changed properties are named, the same way on every run.
	problems := func() []string {
		tg, done := target(t, whole)
		defer done()
		var out []string
		if err := verify.Puzzle(ctx, tg.Catalog(), tg.Puzzle, tg.Record, func(p string) { out = append(out, p) }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := problems(); len(got) != 1 || !strings.Contains(got[0], "differ from the published") {
		t.Errorf("verify: %q", got)
	}
	db, err := sql.Open("sqlite", whole)
	if err != nil {
		t.Fatal(err)
	}
	var tampered int64
	err = db.QueryRow("UPDATE props_magic_5 SET props = (props | 1) - (props & 1) WHERE id = (SELECT min(id) FROM props_magic_5) RETURNING id").Scan(&tampered)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The class's stored properties, and the recorded counts of the
	// properties it gained or lost, are named.
	first := problems()
	if len(first) < 3 || !strings.Contains(first[1], "properties") || !strings.Contains(first[2], "recorded counts of ") || !slices.Equal(first, problems()) {
		t.Errorf("verify after changing class %d's properties: %q", tampered, first)
	}
}

// TestMagic5StopBetweenPhases cancels the build right after the class
// search's last unit, so the context is cancelled while phase 2 opens its
// tables: the build must say it was interrupted, as at any other moment.
func TestMagic5StopBetweenPhases(t *testing.T) {
	defer func(rows int64) { magic5UnitRows = rows }(magic5UnitRows)
	magic5UnitRows = 10000
	err := buildMagic5Sample(t, filepath.Join(t.TempDir(), "stopped.db"), 2, "forms", int64(len(magic5TestUnits())))
	if !errors.Is(err, ErrInterrupted) {
		t.Errorf("stopped after the last unit of phase 1: %v", err)
	}
}
