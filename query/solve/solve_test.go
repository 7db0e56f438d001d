package solve

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"solcat/canon"
)

// queensSolutions lists the solutions of queens:n (the queen's column by
// row) that keep prop (0: all), by a plain search, for the tests to count
// against.
func queensSolutions(n int, prop canon.Property) [][]int {
	var out [][]int
	cols := make([]int, n)
	var place func(r int)
	place = func(r int) {
		if r == n {
			out = append(out, slices.Clone(cols))
			return
		}
		for c := range n {
			ok := true
			for r2 := range r {
				dr, dc := r-r2, c-cols[r2]
				switch {
				case dc == 0 || dc == dr || dc == -dr:
					ok = false
				case prop == canon.Superqueen && (dr == 1 && (dc == 2 || dc == -2) || dr == 2 && (dc == 1 || dc == -1)):
					ok = false
				case prop == canon.Toroidal && ((dc-dr)%n == 0 || (dc+dr)%n == 0):
					ok = false
				}
			}
			if ok {
				cols[r] = c
				place(r + 1)
			}
		}
	}
	place(0)
	return out
}

// meets reports whether the solution (or, up to symmetry, one of its
// images) has the cells given.
func meets(n int, sol []int, cells []Cell, upToSymmetry bool) bool {
	for _, s := range canon.All {
		if !upToSymmetry && s != canon.Identity {
			continue
		}
		image := make([]int, n)
		for r, c := range sol {
			r2, c2 := s.Map(n, r, c)
			image[r2] = c2
		}
		all := true
		for _, cell := range cells {
			all = all && (image[cell.Row-1] == cell.Col-1) == (cell.Value == 1)
		}
		if all {
			return true
		}
	}
	return false
}

var someCells = [][]Cell{
	nil,
	{{1, 2, 1}},
	{{1, 1, 0}, {3, 4, 0}},
	{{2, 3, 1}, {5, 1, 0}},
	{{1, 1, 1}, {2, 2, 1}}, // no solution
}

// TestCountsAsPlainSearch: every question, counted, is what a plain search
// of every solution finds, on queens:8 and the board properties of
// queens:11 and 13.
func TestCountsAsPlainSearch(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		n    int
		prop canon.Property
	}{{8, 0}, {11, canon.Toroidal}, {11, canon.Superqueen}, {13, canon.Superqueen}} {
		solutions := queensSolutions(c.n, c.prop)
		for _, cells := range someCells {
			for _, upToSymmetry := range []bool{false, true} {
				q := Question{Constraint: Queens(c.n, cells), UpToSymmetry: upToSymmetry, Prop: c.prop}
				t.Run(fmt.Sprintf("queens:%d %v %v up to symmetry %v", c.n, c.prop, cells, upToSymmetry), func(t *testing.T) {
					var want int64
					for _, s := range solutions {
						if meets(c.n, s, cells, upToSymmetry) {
							want++
						}
					}
					got, err := q.Count(ctx, 2)
					if err != nil || got != want {
						t.Errorf("Count: %d, %v; want %d", got, err, want)
					}
					if got, err := Recount(ctx, q.Key()); err != nil || got != want {
						t.Errorf("Recount: %d, %v; want %d", got, err, want)
					}
				})
			}
		}
	}
}

// TestBoardOrbits: a board count with no cell fixed gives the published
// classes by orbit size, and the questions of each orbit size count them.
func TestBoardOrbits(t *testing.T) {
	ctx := context.Background()
	p := canon.Puzzle{Kind: canon.Queens, N: 13}
	known, _ := canon.KnownWithProperty(p, canon.Superqueen)
	b, err := NewBoard(canon.Superqueen, Queens(p.N, nil))
	if err != nil {
		t.Fatal(err)
	}
	n, orbits, err := b.Count(ctx, 2, nil, nil)
	if err != nil || n != known.Solutions || orbits != known.Orbits || orbits.Classes() != known.Classes || !b.Classes() {
		t.Fatalf("superqueens of %s: %d, %v, %v (classes %v); want %d, %v", p, n, orbits, err, b.Classes(), known.Solutions, known.Orbits)
	}
	for _, k := range []int{2, 4, 8} {
		got, err := Question{Constraint: Queens(p.N, nil), Prop: canon.Superqueen, Orbit: k}.Count(ctx, 2)
		if want := int64(k) * known.Orbits[k]; err != nil || got != want {
			t.Errorf("orbit %d: %d, %v; want %d", k, got, err, want)
		}
	}
}

// TestQuestionKeys: keys read back as the question written, images of a
// filter share one key, and keys of no question do not read.
func TestQuestionKeys(t *testing.T) {
	questions := []Question{
		{Constraint: Queens(8, nil)},
		{Constraint: Queens(9, someCells[1])},
		{Constraint: Queens(9, someCells[2]), UpToSymmetry: true},
		{Constraint: Queens(13, nil), Prop: canon.Toroidal},
		{Constraint: Queens(13, nil), Prop: canon.Superqueen, Orbit: 4},
		{Constraint: Queens(11, someCells[3]), Prop: canon.Superqueen, UpToSymmetry: true},
	}
	for _, q := range questions {
		key := q.Key()
		back, ok := ParseQuestion(key)
		if !ok || string(back.Key()) != string(key) || back.Prop != q.Prop || back.Orbit != q.Orbit || back.UpToSymmetry != q.UpToSymmetry || back.Constraint.N() != q.Constraint.N() {
			t.Errorf("%q reads back as %+v, %v", key, back, ok)
		}
	}
	corner := Question{Constraint: Queens(8, []Cell{{1, 1, 1}})}.Key()
	for _, c := range []Cell{{1, 8, 1}, {8, 1, 1}, {8, 8, 1}} {
		if other := (Question{Constraint: Queens(8, []Cell{c})}).Key(); string(other) != string(corner) {
			t.Errorf("a queen in corner %v: key %q, not the first corner's %q", c, other, corner)
		}
	}
	free := Queens(8, nil).Canonical()
	for _, key := range [][]byte{nil, []byte("U"), []byte("PT"), append([]byte("PTO\x03"), free.c.Key()...), append([]byte("PX"), free.c.Key()...)} {
		if q, ok := ParseQuestion(key); ok {
			t.Errorf("%q reads as %+v", key, q)
		}
	}
	if !free.Free() || Queens(8, someCells[1]).Free() {
		t.Error("Free: wrong")
	}
}

// TestCounterResumes: a counter's units, timed, counted and resumed, add
// up to its count, each counted and saved once.
func TestCounterResumes(t *testing.T) {
	ctx := context.Background()
	c := Queens(12, []Cell{{2, 5, 0}})
	want, err := Question{Constraint: c}.Count(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewCounter(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Probe(ctx, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if k.timed == 0 || k.TimeLeft(2) < 0 {
		t.Errorf("Probe timed %d units, left %v", k.timed, k.TimeLeft(2))
	}
	saved := map[int]int64{}
	done := 0
	got, err := k.Count(ctx, 2, func(u int, n int64) {
		if _, twice := saved[u]; twice {
			t.Errorf("unit %d saved twice", u)
		}
		saved[u] = n
	}, func(d, total int) { done = d })
	if err != nil || got != want || len(saved) != k.Units() || done != k.Units() {
		t.Fatalf("Count: %d, %v, %d of %d units saved, progress at %d; want %d", got, err, len(saved), k.Units(), done, want)
	}
	// Half of the units saved by a run that stopped: the rest are counted
	// and saved, the saved ones never again.
	again, err := NewCounter(c)
	if err != nil {
		t.Fatal(err)
	}
	half := map[int]int64{}
	for u, n := range saved {
		if u%2 == 0 {
			half[u] = n
		}
	}
	again.Resume(half)
	var counted int
	got, err = again.Count(ctx, 2, func(u int, _ int64) {
		if _, ok := half[u]; ok {
			t.Errorf("unit %d saved again", u)
		}
		counted++
	}, nil)
	if err != nil || got != want || counted != k.Units()-len(half) {
		t.Errorf("resumed: %d, %v, %d units saved; want %d, %d", got, err, counted, want, k.Units()-len(half))
	}
	if string(again.Key()) != string(k.Key()) || string(k.Question()) != string(Question{Constraint: c}.Key()) {
		t.Errorf("keys: units %q and %q, question %q", again.Key(), k.Key(), k.Question())
	}
}

// TestEstimates: a filter and its mirror image (queens) or its transpose
// (magic squares) are one estimate's question, which runs; sizes past the
// estimators' are refused before anything runs.
func TestEstimates(t *testing.T) {
	for _, c := range []struct {
		p            canon.Puzzle
		cells, image []Cell
	}{
		{canon.Puzzle{Kind: canon.Queens, N: 6}, []Cell{{1, 2, 1}, {3, 3, 0}}, []Cell{{3, 4, 0}, {1, 5, 1}}}, // mirrored
		{canon.Puzzle{Kind: canon.Magic, N: 6}, []Cell{{1, 2, 5}, {3, 3, 7}}, []Cell{{3, 3, 7}, {2, 1, 5}}},  // transposed
	} {
		p := c.p
		a, err := NewEstimate(p, c.cells)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewEstimate(p, c.image)
		if err != nil {
			t.Fatal(err)
		}
		if string(a.Question) != string(b.Question) || a.Method == "" || len(a.Terms()) == 0 {
			t.Errorf("%s: questions %q and %q, method %q, terms %v", p, a.Question, b.Question, a.Method, a.Terms())
		}
		r, err := a.Run(context.Background(), EstimateOptions{Seed: 1, Probes: 200, Workers: 1})
		if err != nil || r.Probes < 200 || r.Solutions.Mean < 0 {
			t.Errorf("%s: run %+v, %v", p, r, err)
		}
	}
	if _, err := NewEstimate(canon.Puzzle{Kind: canon.Queens, N: MaxConstrainedQueens + 1}, nil); err == nil {
		t.Error("queens past the estimators' reach: no error")
	}
}
