package enumerate

import (
	"bytes"
	"context"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"solcat/canon"
)

// The tests build many puzzles in one process: collecting at 4x the live
// heap rather than 2x takes a tenth or more off their processor time.
func init() { debug.SetGCPercent(400) }

// longTests reports whether the long cases run: SOLCAT_LONG=1, not -short.
func longTests() bool { return !testing.Short() && os.Getenv("SOLCAT_LONG") != "" }

// collect runs an enumerator and checks that every solution is valid and
// that they arrive in strictly increasing lexicographic order.
func collect(t *testing.T, p canon.Puzzle, run func(Emit) (Stats, error)) [][]byte {
	t.Helper()
	var sols [][]byte
	stats, err := run(func(sol []byte) error {
		if err := p.Check(sol); err != nil {
			t.Fatalf("%s: invalid solution %v: %v", p, sol, err)
		}
		if len(sols) > 0 && bytes.Compare(sols[len(sols)-1], sol) >= 0 {
			t.Fatalf("%s: %v emitted after %v", p, sol, sols[len(sols)-1])
		}
		sols = append(sols, bytes.Clone(sol))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Solutions != int64(len(sols)) {
		t.Fatalf("%s: stats say %d solutions, emitted %d", p, stats.Solutions, len(sols))
	}
	return sols
}

func TestQueensMatchesOEIS(t *testing.T) {
	for n := 1; n <= 12; n++ {
		p := canon.Puzzle{Kind: canon.Queens, N: n}
		for _, workers := range []int{1, 2} {
			sols := collect(t, p, func(e Emit) (Stats, error) { return Queens(context.Background(), n, Options{Workers: workers}, e) })
			known, _ := canon.KnownCounts(p)
			if int64(len(sols)) != known.Solutions {
				t.Errorf("queens:%d with %d workers: %d solutions, want %d", n, workers, len(sols), known.Solutions)
			}
		}
	}
}

// TestQueensAgainstArrayBacktracking compares the bitmask search with a
// plain array backtracking written independently here.
func TestQueensAgainstArrayBacktracking(t *testing.T) {
	for n := 1; n <= 9; n++ {
		p := canon.Puzzle{Kind: canon.Queens, N: n}
		got := collect(t, p, func(e Emit) (Stats, error) { return Queens(context.Background(), n, Options{Workers: 2}, e) })
		var want [][]byte
		cols := make([]byte, n)
		var place func(r int)
		place = func(r int) {
			if r == n {
				want = append(want, bytes.Clone(cols))
				return
			}
		next:
			for c := 0; c < n; c++ {
				for q := 0; q < r; q++ {
					d := c - int(cols[q])
					if d == 0 || d == r-q || d == q-r {
						continue next
					}
				}
				cols[r] = byte(c)
				place(r + 1)
			}
		}
		place(0)
		if len(got) != len(want) {
			t.Fatalf("queens:%d: %d solutions, array backtracking finds %d", n, len(got), len(want))
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("queens:%d: solution %d is %v, array backtracking gives %v", n, i+1, got[i], want[i])
			}
		}
	}
}

func TestMagicMatchesOEIS(t *testing.T) {
	for n := 1; n <= 4; n++ {
		p := canon.Puzzle{Kind: canon.Magic, N: n}
		sols := collect(t, p, func(e Emit) (Stats, error) { return Magic(context.Background(), n, Options{}, e) })
		known, _ := canon.KnownCounts(p)
		if int64(len(sols)) != known.Solutions {
			t.Errorf("magic:%d: %d squares, want %d", n, len(sols), known.Solutions)
		}
	}
}

// TestMagic3AgainstBruteForce checks order 3 against all 9! arrangements.
func TestMagic3AgainstBruteForce(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Magic, N: 3}
	got := collect(t, p, func(e Emit) (Stats, error) { return Magic(context.Background(), 3, Options{}, e) })
	var want [][]byte
	perm := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}
	var permute func(k int)
	permute = func(k int) {
		if k == len(perm) {
			if p.Check(perm) == nil {
				want = append(want, bytes.Clone(perm))
			}
			return
		}
		for i := k; i < len(perm); i++ {
			perm[k], perm[i] = perm[i], perm[k]
			permute(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	permute(0)
	if len(want) != 8 || len(got) != 8 {
		t.Fatalf("brute force finds %d, enumerator %d; want 8", len(want), len(got))
	}
	seen := map[string]bool{}
	for _, w := range want {
		seen[string(w)] = true
	}
	for _, g := range got {
		if !seen[string(g)] {
			t.Errorf("%v is not among the brute-force squares", g)
		}
	}
}

func TestMagicRefusesLargeOrders(t *testing.T) {
	if _, err := Magic(context.Background(), 5, Options{}, func([]byte) error { return nil }); err == nil {
		t.Fatal("order 5 accepted; want a refusal")
	}
}

func BenchmarkMagic4(b *testing.B) {
	for b.Loop() {
		Magic(context.Background(), 4, Options{}, func([]byte) error { return nil })
	}
}

func BenchmarkQueens12(b *testing.B) {
	for b.Loop() {
		Queens(context.Background(), 12, Options{}, func([]byte) error { return nil })
	}
}

// TestClassesMatchOEIS classifies every solution twice: by the streaming
// Classifier (first-seen canonical forms) and by collecting the distinct
// canonical forms, and checks both against the published class counts.
func TestClassesMatchOEIS(t *testing.T) {
	var puzzles []canon.Puzzle
	for n := 1; n <= 4; n++ {
		puzzles = append(puzzles, canon.Puzzle{Kind: canon.Magic, N: n})
	}
	for n := 1; n <= 12; n++ {
		puzzles = append(puzzles, canon.Puzzle{Kind: canon.Queens, N: n})
	}
	for _, p := range puzzles {
		t.Run(p.String(), func(t *testing.T) {
			k := canon.NewClassifier(p)
			c := canon.NewImages(p)
			distinct := map[string]int{}
			_, err := All(context.Background(), p, Options{}, func(sol []byte) error {
				if _, err := k.Add(sol); err != nil {
					return err
				}
				f := c.Canonical(sol)
				distinct[string(f.Canonical)] = f.Orbit
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			known, _ := canon.KnownCounts(p)
			var orbits [9]int64
			for _, o := range distinct {
				orbits[o]++
			}
			if k.Classes() != known.Classes || int64(len(distinct)) != known.Classes {
				t.Errorf("classes: classifier %d, distinct forms %d, published %d", k.Classes(), len(distinct), known.Classes)
			}
			if k.Orbits != known.Orbits || orbits != known.Orbits {
				t.Errorf("orbit split: classifier %v, distinct forms %v, published %v", k.Orbits, orbits, known.Orbits)
			}
		})
	}
}

// TestFrenicleStandardForm checks that the lexicographically smallest image
// of every order-4 square is in Frénicle's standard form, and that class 1
// is the one Frénicle lists first.
func TestFrenicleStandardForm(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Magic, N: 4}
	c := canon.NewImages(p)
	var first []byte
	forms := map[string]bool{}
	_, err := Magic(context.Background(), 4, Options{}, func(sol []byte) error {
		f := c.Canonical(sol)
		g := f.Canonical
		corners := []byte{g[0], g[3], g[12], g[15]}
		if g[0] != slices.Min(corners) || g[1] >= g[4] {
			t.Fatalf("%v is not in Frénicle standard form", g)
		}
		if first == nil {
			first = bytes.Clone(g)
		}
		forms[string(g)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{1, 2, 15, 16, 12, 14, 3, 5, 13, 7, 10, 4, 8, 11, 6, 9}
	if !bytes.Equal(first, want) {
		t.Errorf("class 1 is %v, want %v", first, want)
	}
	if len(forms) != 880 {
		t.Errorf("%d Frénicle forms, want 880", len(forms))
	}
}

// TestQueensCatalogMatchesPlainSearch compares the symmetry-reduced catalog
// (classes first, members expanded and sorted) with the plain lexicographic
// search classified solution by solution.
func TestQueensCatalogMatchesPlainSearch(t *testing.T) {
	for n := 1; n <= 11; n++ {
		p := canon.Puzzle{Kind: canon.Queens, N: n}
		type row struct {
			sol   string
			class int64
			from  canon.Symmetry
		}
		var want []row
		var wantForms []string
		k := canon.NewClassifier(p)
		_, err := Queens(context.Background(), n, Options{}, func(sol []byte) error {
			pl, err := k.Add(sol)
			if pl.NewClass {
				wantForms = append(wantForms, string(sol))
			}
			want = append(want, row{string(sol), pl.ClassID, pl.From})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			var got []row
			var gotForms []string
			counts, err := QueensCatalog(context.Background(), n, Options{Workers: workers},
				func(id int64, form []byte, orbit int) error {
					if id != int64(len(gotForms)+1) {
						t.Fatalf("class ID %d out of order", id)
					}
					gotForms = append(gotForms, string(form))
					return nil
				},
				func(sol []byte, class int64, from canon.Symmetry) error {
					got = append(got, row{string(sol), class, from})
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || !slices.Equal(gotForms, wantForms) {
				t.Fatalf("queens:%d, %d workers: catalog (%d solutions, %d classes) differs from the plain search (%d, %d)",
					n, workers, len(got), len(gotForms), len(want), len(wantForms))
			}
			if counts.Solutions() != int64(len(want)) {
				t.Errorf("queens:%d: counts say %d solutions", n, counts.Solutions())
			}
		}
	}
}

// TestCountQueensMatchesOEIS checks the symmetry-reduced counter, the
// join counter and the published split up to N=15, and the textbook
// counter up to N=14 (N=15, three quarters of a second, with SOLCAT_LONG=1).
func TestCountQueensMatchesOEIS(t *testing.T) {
	textbookTo := 14
	if longTests() {
		textbookTo = 15
	}
	for n := 1; n <= 15; n++ {
		p := canon.Puzzle{Kind: canon.Queens, N: n}
		known, _ := canon.KnownCounts(p)
		c, err := CountQueens(context.Background(), n, 2)
		if err != nil {
			t.Fatal(err)
		}
		if c.Solutions() != known.Solutions || c.Classes() != known.Classes || c.Orbits != known.Orbits {
			t.Errorf("queens:%d: %d solutions, orbits %v; published %d, %v", n, c.Solutions(), c.Orbits, known.Solutions, known.Orbits)
		}
		// The join counter, on one and on two goroutines (its units are
		// taken in order, so the result cannot depend on their number).
		var nodes []int64
		for workers := 1; n >= 4 && workers <= 2; workers++ {
			c, err := CountQueensJoin(context.Background(), n, workers)
			if err != nil || c.Solutions() != known.Solutions || c.Orbits != known.Orbits || c.Joined != 0 {
				t.Errorf("queens:%d join counter, %d workers: %d solutions, orbits %v, %v; published %d, %v", n, workers, c.Solutions(), c.Orbits, err, known.Solutions, known.Orbits)
			}
			nodes = append(nodes, c.Nodes)
		}
		if len(nodes) == 2 && nodes[0] != nodes[1] {
			t.Errorf("queens:%d join counter: %d nodes on one goroutine, %d on two", n, nodes[0], nodes[1])
		}
		if n <= textbookTo {
			if tb := TextbookQueens(n); tb.Solutions != known.Solutions {
				t.Errorf("queens:%d: textbook counter finds %d, published %d", n, tb.Solutions, known.Solutions)
			}
		}
	}
}

func TestPermutationRank(t *testing.T) {
	perms := [][]byte{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {1, 0, 2, 3}, {3, 2, 1, 0}}
	want := []uint64{0, 1, 2, 6, 23}
	for i, p := range perms {
		if got := permutationRank(p); got != want[i] {
			t.Errorf("rank %v = %d, want %d", p, got, want[i])
		}
	}
}

// TestMemberLayout packs every permutation of 8 with class IDs large enough
// to force buckets 1 to 4 rows deep, as queens:16 and 17 need 2 and 3, and
// checks that the buckets in order, each sorted, list the permutations in
// lexicographic order with their class and symmetry intact.
func TestMemberLayout(t *testing.T) {
	const n = 8
	var perms [][]byte
	var permute func(prefix []byte, used int)
	permute = func(prefix []byte, used int) {
		if len(prefix) == n {
			perms = append(perms, slices.Clone(prefix))
			return
		}
		for v := range n {
			if used&(1<<v) == 0 {
				permute(append(prefix, byte(v)), used|1<<v)
			}
		}
	}
	permute(nil, 0)
	for _, tc := range []struct {
		classes int
		depth   int
	}{{100, 1}, {1 << 48, 2}, {1 << 51, 3}, {1 << 54, 4}} {
		l := newMemberLayout(n, tc.classes)
		if l.depth != tc.depth {
			t.Errorf("%d classes: depth %d, want %d", tc.classes, l.depth, tc.depth)
		}
		buckets := make([][]uint64, l.buckets)
		classOf := func(i int) int { return 1 + (i*7919)%tc.classes }
		for i := len(perms) - 1; i >= 0; i-- { // any order
			b, key := l.key(permutationRank(perms[i]), classOf(i), canon.Symmetry(i%8))
			buckets[b] = append(buckets[b], key)
		}
		i := 0
		for b, keys := range buckets {
			if b/l.perColumn != i/(len(perms)/n) && len(keys) > 0 {
				t.Fatalf("%d classes: bucket %d holds first-row column %d", tc.classes, b, i/(len(perms)/n))
			}
			slices.Sort(keys)
			for _, key := range keys {
				class, from := l.member(key)
				if class != classOf(i) || from != canon.Symmetry(i%8) {
					t.Fatalf("%d classes: member %d (%v) reads back as class %d, %v", tc.classes, i, perms[i], class, from)
				}
				i++
			}
		}
		if i != len(perms) {
			t.Errorf("%d classes: %d members read back, want %d", tc.classes, i, len(perms))
		}
	}
}

// TestMethodsFindTheSameSolutions runs every bench method with an emit and
// compares the sets of solutions they hand over, and counts again without
// an emit. On magic:4 (not with -short) solcat finds the published
// squares; rowset and celldfs (2 and 9 seconds on magic:4; checked on
// magic:1 and 3) and the counts without an emit run there with
// SOLCAT_LONG=1 only.
func TestMethodsFindTheSameSolutions(t *testing.T) {
	type job struct {
		kind canon.Kind
		n    int
	}
	var jobs []job
	for n := 1; n <= 10; n++ {
		jobs = append(jobs, job{canon.Queens, n})
	}
	jobs = append(jobs, job{canon.Magic, 1}, job{canon.Magic, 3})
	if !testing.Short() {
		jobs = append(jobs, job{canon.Magic, 4})
	}
	for _, j := range jobs {
		p := canon.Puzzle{Kind: j.kind, N: j.n}
		var want []string
		first := ""
		for _, m := range Methods(j.kind) {
			if j.kind == canon.Magic && j.n == 4 && m.Name != "solcat" && !longTests() {
				continue
			}
			var got []string
			st, err := m.Run(context.Background(), j.n, func(sol []byte) error {
				if err := p.Check(sol); err != nil {
					return err
				}
				got = append(got, string(sol))
				return nil
			})
			if err != nil {
				t.Fatalf("%s %s: %v", p, m.Name, err)
			}
			slices.Sort(got)
			if st.Solutions != int64(len(got)) || len(slices.Compact(slices.Clone(got))) != len(got) {
				t.Errorf("%s %s: %d solutions emitted (some twice?), stats say %d", p, m.Name, len(got), st.Solutions)
			}
			if first == "" {
				want, first = got, m.Name
				known, _ := canon.KnownCounts(p)
				if int64(len(want)) != known.Solutions {
					t.Errorf("%s %s: %d solutions, published %d", p, m.Name, len(want), known.Solutions)
				}
			} else if !slices.Equal(got, want) {
				t.Errorf("%s: %s finds a different set of solutions than %s", p, m.Name, first)
			}
			// Counting without an emit gives the same total.
			if j.kind == canon.Magic && j.n == 4 && !longTests() {
				continue
			}
			if c, err := m.Run(context.Background(), j.n, nil); err != nil || c.Solutions != int64(len(want)) {
				t.Errorf("%s %s counting: %d, %v", p, m.Name, c.Solutions, err)
			}
		}
	}
}

// TestBench checks a benchmark's counts and ratios: every method finds the
// same solutions, and the fastest has ratio 1.
func TestBench(t *testing.T) {
	for _, p := range []canon.Puzzle{{Kind: canon.Queens, N: 8}, {Kind: canon.Magic, N: 3}} {
		rows, err := Bench(context.Background(), p.N, Methods(p.Kind), 3)
		if err != nil {
			t.Fatal(err)
		}
		known, _ := canon.KnownCounts(p)
		ones := 0
		for _, r := range rows {
			if r.Solutions != known.Solutions || r.Seconds <= 0 || r.Ratio < 1 {
				t.Errorf("%s %s: %+v", p, r.Method, r)
			}
			if r.Ratio == 1 {
				ones++
			}
		}
		if len(rows) != len(Methods(p.Kind)) || ones == 0 {
			t.Errorf("%s: %d rows, %d with ratio 1", p, len(rows), ones)
		}
	}
}

// TestSupported checks which puzzles are stored, counted or refused.
func TestSupported(t *testing.T) {
	for _, tc := range []struct {
		p                 canon.Puzzle
		stored, countOnly bool
	}{
		{canon.Puzzle{Kind: canon.Queens, N: 17}, true, true},
		{canon.Puzzle{Kind: canon.Queens, N: 19}, true, true},
		{canon.Puzzle{Kind: canon.Queens, N: 20}, false, true},
		{canon.Puzzle{Kind: canon.Queens, N: 23}, false, true},
		{canon.Puzzle{Kind: canon.Queens, N: 24}, false, false},
		{canon.Puzzle{Kind: canon.Magic, N: 4}, true, false},
		{canon.Puzzle{Kind: canon.Magic, N: 5}, true, true},
		{canon.Puzzle{Kind: canon.Magic, N: 6}, false, false},
	} {
		if got := Supported(tc.p, false) == nil; got != tc.stored {
			t.Errorf("%s stored: %v, want %v", tc.p, got, tc.stored)
		}
		if got := Supported(tc.p, true) == nil; got != tc.countOnly {
			t.Errorf("%s counted: %v, want %v", tc.p, got, tc.countOnly)
		}
		if _, ok := canon.KnownCounts(tc.p); tc.countOnly && !ok {
			t.Errorf("%s is counted but has no published counts to check against", tc.p)
		}
	}
}

// TestMethodsSayWhatTheyAre: bench prints each method's About to users,
// so it says what the method does, not where it came from in the
// project's notes.
func TestMethodsSayWhatTheyAre(t *testing.T) {
	for _, kind := range []canon.Kind{canon.Magic, canon.Queens} {
		for _, m := range Methods(kind) {
			if m.About == "" || strings.Contains(m.About, "seed") || strings.Contains(m.About, "section") {
				t.Errorf("%s %s: %q", kind, m.Name, m.About)
			}
		}
	}
}
