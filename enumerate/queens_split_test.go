package enumerate

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"solcat/canon"
)

// TestUnrankSet checks that the sets of k of n columns come by rank in
// their order as numbers (the colexicographic order), each once, and that
// nextSameCount steps through them in that order.
func TestUnrankSet(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{10, 0}, {10, 1}, {10, 4}, {10, 10}, {14, 7}} {
		var next uint32 // the next set of k columns, as a number
		for set := uint32(0); set < 1<<tc.n; set++ {
			if onesCount(set) == tc.k {
				next = set
				break
			}
		}
		stepped := uint64(1)<<tc.k - 1 // as a ranked block steps through its sets
		for r := range int(binomial[tc.n][tc.k]) {
			if got := unrankSet(r, tc.k); got != next {
				t.Fatalf("C(%d,%d): rank %d gives %b, want %b", tc.n, tc.k, r, got, next)
			}
			if stepped != uint64(next) {
				t.Fatalf("C(%d,%d): rank %d stepped to %b, want %b", tc.n, tc.k, r, stepped, next)
			}
			if stepped != 0 {
				stepped = nextSameCount(stepped)
			}
			for next++; next < 1<<tc.n && onesCount(next) != tc.k; next++ {
			}
		}
		if next < 1<<tc.n {
			t.Errorf("C(%d,%d): %b has no rank", tc.n, tc.k, next)
		}
	}
	// The largest: the sets of 16 of 32 columns, first and last.
	if got := unrankSet(0, 16); got != 0xffff {
		t.Errorf("rank 0 of 16 of 32 columns: %x", got)
	}
	if got := unrankSet(int(binomial[32][16])-1, 16); got != 0xffff0000 {
		t.Errorf("the last rank of 16 of 32 columns: %x", got)
	}
}

// unrankSet, the reference for rank's order, is the set of k columns of
// rank rank among the sets of k columns in the colexicographic order, which
// is the order of the sets as numbers: the rank of a set of columns
// c_0 < c_1 < ... is the sum of C(c_i, i+1) (see halfBlock.rank).
func unrankSet(rank, k int) uint32 {
	var set uint32
	r := int64(rank)
	for i := k; i >= 1; i-- {
		c := i - 1
		for binomial[c+1][i] <= r {
			c++
		}
		set |= 1 << c
		r -= binomial[c][i]
	}
	return set
}

// setOf is the set of a ranked block's index i: rank's inverse, by
// unrankSet.
func (b *halfBlock) setOf(i int) uint32 {
	packed := unrankSet(i, b.pick)
	set := b.fixed
	for x := b.free; packed != 0; x &= x - 1 {
		if packed&1 != 0 {
			set |= x & -x
		}
		packed >>= 1
	}
	return set
}

// TestBlockRank checks a ranked block's index: every set of k columns
// that holds the fixed ones and only columns in use has its own rank
// below the index's size and comes back by setOf; any other set has none.
func TestBlockRank(t *testing.T) {
	for _, tc := range []struct {
		n, k        int
		fixed, free uint32
	}{
		{10, 4, 0, 0x3ff},
		{12, 5, 0b100000000001, 0b011111111110},
		{24, 11, 0x00f00f, 0x0f0ff0},
		{32, 12, 0x80000001, 0x7ff0ff0e},
		{26, 6, 0x3f, 0},
	} {
		b := &halfBlock{k: tc.k}
		// Two placements, one with every fixed and free column, so that
		// useColumns finds them.
		b.useColumns([][]uint32{{tc.fixed | tc.free, tc.fixed}})
		if b.fixed != tc.fixed || b.free != tc.free {
			t.Fatalf("%+v: fixed %x free %x", tc, b.fixed, b.free)
		}
		size := int(binomial[onesCount(tc.free)][b.pick])
		seen := map[int]uint32{} // by rank, its set
		sample := func(set uint32) {
			r, ok := b.rank(set)
			x := set &^ tc.fixed
			want := set&tc.fixed == tc.fixed && x&^tc.free == 0 && onesCount(x) == b.pick
			if ok != want {
				t.Fatalf("%+v: set %x ranked %v, want %v", tc, set, ok, want)
			}
			if !ok {
				return
			}
			if other, taken := seen[r]; r < 0 || r >= size || taken && other != set {
				t.Fatalf("%+v: set %x has rank %d (out of %d, or taken)", tc, set, r, size)
			}
			seen[r] = set
			if back := b.setOf(r); back != set {
				t.Fatalf("%+v: rank %d of %x gives back %x", tc, r, set, back)
			}
		}
		if tc.n <= 12 {
			for set := uint32(0); set < 1<<tc.n; set++ {
				sample(set)
			}
			if len(seen) != size {
				t.Errorf("%+v: %d ranks, want %d", tc, len(seen), size)
			}
			continue
		}
		rng := uint32(12345)
		for range 20000 {
			rng = rng*1664525 + 1013904223
			sample(rng & (1<<tc.n - 1))
			// A set that may be ranked: the fixed columns and pick free ones.
			set, free := tc.fixed, tc.free
			for i := 0; i < b.pick && free != 0; i++ {
				rng = rng*1664525 + 1013904223
				c := free
				for skip := int(rng>>16) % onesCount(free); skip > 0; skip-- {
					c &= c - 1
				}
				set |= c & -c
				free &^= c & -c
			}
			sample(set)
		}
	}
}

func onesCount(x uint32) (k int) {
	for ; x != 0; x &= x - 1 {
		k++
	}
	return k
}

// cellConstraint is queens:n with queens (value 1) or empty squares (0) at
// the squares given as 1-based row, column and value.
func cellConstraint(n int, cells ...[3]int) QueensConstraint {
	c := NewQueensConstraint(n)
	for _, cell := range cells {
		if cell[2] == 1 {
			c.Queen(cell[0]-1, cell[1]-1)
		} else {
			c.Empty(cell[0]-1, cell[1]-1)
		}
	}
	return c
}

// splitCount counts the solutions under c by the cut counter, failing if
// the count does not cut the board.
func splitCount(t *testing.T, c QueensConstraint, vector bool, workers int) int64 {
	t.Helper()
	q, err := NewConstrainedCounter(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := q.Cut(); !ok {
		t.Fatalf("queens:%d under %x: counted row by row, not cut", c.N, c.Allowed)
	}
	q.vector = vector && vectorMatch
	return countAll(t, q, workers)
}

// countAll counts every unit of q on workers goroutines.
func countAll(t *testing.T, q *ConstrainedCounter, workers int) int64 {
	t.Helper()
	var total int64
	if err := q.CountAll(context.Background(), workers, func(s int64) error { total += s; return nil }); err != nil {
		t.Fatal(err)
	}
	return total
}

// TestSplitEqualsSearch: filters of 1 to 6 squares on queens:18 to 20,
// counted with the board cut, equal the row-by-row search (the textbook
// search under the filter), with the vector loops and without, and cut
// between rows and between columns.
func TestSplitEqualsSearch(t *testing.T) {
	type q = [3]int
	cases := []struct {
		n     int
		cells []q
	}{
		{18, []q{{1, 1, 1}, {2, 3, 1}, {3, 5, 1}, {4, 7, 1}}},                          // a prefix
		{18, []q{{1, 2, 1}, {2, 4, 1}, {3, 6, 1}, {18, 9, 1}, {17, 12, 1}}},            // both ends
		{18, []q{{9, 9, 1}, {10, 2, 1}, {1, 17, 1}, {18, 5, 1}, {5, 5, 0}}},            // the middle, an empty square
		{18, []q{{1, 9, 1}, {2, 7, 1}, {3, 12, 1}, {4, 3, 1}, {2, 1, 0}, {18, 18, 0}}}, // mirror-free, six squares
		{19, []q{{1, 1, 1}, {2, 3, 1}, {3, 5, 1}, {4, 7, 1}, {5, 9, 1}}},
		{19, []q{{1, 10, 1}, {2, 8, 1}, {3, 12, 1}, {19, 10, 0}, {18, 1, 1}}},
		{20, []q{{1, 10, 1}, {2, 11, 0}, {2, 3, 1}, {3, 18, 1}, {4, 6, 1}, {20, 20, 1}}},
		{20, []q{{1, 1, 1}, {2, 3, 1}, {3, 5, 1}, {4, 7, 1}, {5, 9, 1}, {6, 11, 1}}},
		{18, []q{{1, 5, 1}, {1, 5, 0}}}, // no solution
		{18, []q{{1, 5, 1}, {2, 6, 1}}}, // no solution: the queens attack each other
	}
	for _, tc := range cases {
		c := cellConstraint(tc.n, tc.cells...)
		t.Run(fmt.Sprintf("%d %v", tc.n, tc.cells), func(t *testing.T) {
			want := bruteConstrained(c)
			q, err := NewConstrainedCounter(c)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := q.Cut(); !ok {
				if want != 0 {
					t.Fatalf("not cut, and %d solutions", want)
				}
				return
			}
			for _, vector := range []bool{true, false} {
				if got := splitCount(t, c, vector, 2); got != want {
					t.Errorf("queens:%d %v (vector loops %v): %d, the search counts %d", tc.n, tc.cells, vector, got, want)
				}
			}
			// The transpose counts alike: cut the other way, the same.
			if got := otherWayCount(t, c, q); got >= 0 && got != want {
				t.Errorf("queens:%d %v cut the other way (transposed %v): %d, the search counts %d", tc.n, tc.cells, !q.Transposed(), got, want)
			}
		})
	}
}

// TestSplitTransposed: a filter on the top rows is counted on its
// transpose (cut between columns), whose plan is cheaper; one spread over
// the board is not, nor one that is its own transpose. TestSplitEqualsSearch
// counts both ways.
func TestSplitTransposed(t *testing.T) {
	type q = [3]int
	for _, tc := range []struct {
		n          int
		cells      []q
		transposed bool
	}{
		{18, []q{{1, 1, 1}, {2, 3, 1}, {3, 5, 1}, {4, 7, 1}}, true},
		{20, []q{{1, 3, 1}, {2, 7, 1}}, true},
		{26, []q{{1, 1, 1}, {2, 3, 1}, {3, 5, 1}, {4, 7, 1}, {5, 9, 1}, {6, 11, 1}}, true},
		{18, []q{{9, 9, 1}, {10, 2, 1}, {1, 17, 1}, {18, 5, 1}, {5, 5, 0}}, false},
		{20, []q{{1, 1, 1}}, false}, // its own transpose
	} {
		q, err := NewConstrainedCounter(cellConstraint(tc.n, tc.cells...))
		if err != nil {
			t.Fatal(err)
		}
		if q.Transposed() != tc.transposed {
			t.Errorf("queens:%d %v: transposed %v, want %v", tc.n, tc.cells, q.Transposed(), tc.transposed)
		}
	}
}

// otherWayCount counts c cut the way the counter q did not choose (between
// columns if it cut between rows, and the other way round), or -1 if no
// cut fits that way.
func otherWayCount(t *testing.T, c QueensConstraint, q *ConstrainedCounter) int64 {
	t.Helper()
	img := c.propagated()
	if !q.Transposed() {
		img = img.image(canon.Transpose).propagated()
	}
	p, ok := chooseSplit(img)
	if !ok {
		return -1
	}
	return countAll(t, newSplitCounter(img, p), 2)
}

// solutionOf is a solution of queens:n (n >= 4), by the explicit
// construction: by row, the column of its queen.
func solutionOf(n int) []int {
	m := n - n%2 // odd n: that of n-1, and the corner
	cols := make([]int, n)
	for i := range m / 2 {
		if m%6 != 2 {
			cols[i], cols[m/2+i] = 2*i+1, 2*i
		} else {
			cols[i] = (2*i + m/2 - 1) % m
			cols[m-1-i] = m - 1 - (2*i+m/2-1)%m
		}
	}
	if n%2 == 1 {
		cols[n-1] = n - 1
	}
	return cols
}

// TestSplitWideKeys: on queens:24 to 32, the keys of 46 to 62 bits and
// the ranked blocks count alike: every third row of a solution left free
// but for one empty square, the other rows fixed as in it, counted cut and
// by the search.
func TestSplitWideKeys(t *testing.T) {
	for _, n := range []int{24, 26, 29, 31, 32} {
		cols := solutionOf(n)
		c := NewQueensConstraint(n)
		for r, col := range cols {
			if r%3 != 2 {
				c.Queen(r, col)
			} else {
				c.Empty(r, (col+n/2)%n)
			}
		}
		if c.Impossible() {
			t.Fatalf("queens:%d: the construction %v is not a solution", n, cols)
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			want := bruteConstrained(c)
			if want == 0 {
				t.Fatalf("queens:%d: no solution found by the search, but %v is one", n, cols)
			}
			for _, vector := range []bool{true, false} {
				if got := splitCount(t, c, vector, 2); got != want {
					t.Errorf("queens:%d (vector loops %v): %d, the search counts %d", n, vector, got, want)
				}
			}
		})
	}
}

// TestSplitEqualsSearchLong: larger filters on queens:21 to 23 with
// SOLCAT_LONG=1, and on 24 to 26 too with SOLCAT_SPLIT_MAX=26 (the
// row-by-row search takes over ten minutes a filter there).
func TestSplitEqualsSearchLong(t *testing.T) {
	if os.Getenv("SOLCAT_LONG") == "" {
		t.Skip("SOLCAT_LONG=1 counts larger filters against the search")
	}
	largest := 23
	if v, err := strconv.Atoi(os.Getenv("SOLCAT_SPLIT_MAX")); err == nil {
		largest = v
	}
	type q = [3]int
	cases := []struct {
		n     int
		cells []q
	}{
		{21, []q{{1, 3, 1}, {2, 7, 1}, {3, 11, 1}}},
		{22, []q{{1, 1, 1}, {2, 3, 1}, {3, 5, 1}, {12, 15, 1}}},
		{23, []q{{1, 2, 1}, {2, 4, 1}, {3, 6, 1}, {12, 12, 1}, {23, 20, 1}}},
		{24, []q{{1, 1, 1}, {2, 3, 1}, {3, 5, 1}, {4, 7, 1}, {5, 9, 1}, {6, 11, 1}}},
		{25, []q{{1, 5, 1}, {2, 9, 1}, {3, 1, 1}, {4, 12, 1}, {5, 20, 1}, {25, 13, 1}}},
		{26, []q{{1, 1, 1}, {2, 3, 1}, {3, 5, 1}, {4, 7, 1}, {5, 9, 1}, {26, 24, 1}}},
	}
	for _, tc := range cases {
		if tc.n > largest {
			continue
		}
		c := cellConstraint(tc.n, tc.cells...)
		t.Run(fmt.Sprintf("%d %v", tc.n, tc.cells), func(t *testing.T) {
			want := bruteConstrained(c)
			if got := splitCount(t, c, true, 2); got != want {
				t.Errorf("queens:%d %v: %d, the search counts %d", tc.n, tc.cells, got, want)
			}
		})
	}
}
