package enumerate

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"solcat/canon"
)

func TestTranspose64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		var a, orig [64]uint64
		for i := range a {
			a[i] = rng.Uint64()
			orig[i] = a[i]
		}
		transpose64(&a)
		for i := range 64 {
			for p := range 64 {
				if orig[i]>>p&1 != a[p]>>i&1 {
					t.Fatalf("bit %d of row %d did not become bit %d of row %d", p, i, i, p)
				}
			}
		}
	}
}

// TestJoinUnitsStandForEveryJoin checks the symmetry weighting: the joins
// the units list, each counted as many times as it has distinct images,
// are all the joins there are (every set of n/2 columns, with every middle
// column outside it when n is odd).
func TestJoinUnitsStandForEveryJoin(t *testing.T) {
	for n := 4; n <= 17; n++ {
		var weighted int64
		j := newJoiner(n, nil, nil)
		for _, u := range QueensJoinUnits(n) {
			for _, k := range u.Keys {
				syms, smallest := j.images(k.M, k.D)
				if !smallest {
					t.Fatalf("queens:%d: unit lists %v, which is not the smallest of its images", n, k)
				}
				weighted += int64(len(syms))
			}
		}
		perSet := int64(1) // even n: one join per set of n/2 columns
		if n%2 == 1 {
			perSet = int64(n - n/2) // odd n: any other column may hold the middle queen
		}
		var want int64
		for d := uint32(0); d < 1<<n; d++ {
			if bits.OnesCount32(d) == n/2 {
				want += perSet
			}
		}
		if weighted != want {
			t.Errorf("queens:%d: the units stand for %d joins, there are %d", n, weighted, want)
		}
	}
}

// TestRowBlocks checks the block tables against a plain search: every
// placement of k queens on k rows is listed once, under its column set,
// with the masks its joins are tested by.
func TestRowBlocks(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{4, 1}, {5, 2}, {8, 3}, {9, 4}, {12, 4}, {13, 3}} {
		b := newRowBlocks(tc.n, tc.k)
		// A plain search for the placements, as column lists.
		want := map[string]bool{}
		var place func(cols []byte)
		place = func(cols []byte) {
			if len(cols) == tc.k {
				want[string(cols)] = true
				return
			}
			for c := 0; c < tc.n; c++ {
				ok := true
				for y, q := range cols {
					d := len(cols) - y
					ok = ok && int(q) != c && int(q)+d != c && int(q)-d != c
				}
				if ok {
					place(append(cols, byte(c)))
				}
			}
		}
		place(nil)
		if b.placements() != len(want) {
			t.Fatalf("queens:%d, %d rows: %d placements listed, a plain search finds %d", tc.n, tc.k, b.placements(), len(want))
		}
		seen := map[string]bool{}
		for set := range uint32(1) << tc.n {
			from, to := b.on(set)
			for p := from; p < to; p++ {
				cols := b.cols[p*tc.k : (p+1)*tc.k]
				var gotSet, below, above uint64
				for y, c := range cols {
					gotSet |= 1 << c
					// Its diagonals on the row below the block, and where a
					// queen on the first row sits to attack it.
					if d := tc.k - y; int(c)+d < tc.n {
						below |= 1 << (int(c) + d)
					}
					if d := tc.k - y; int(c)-d >= 0 {
						below |= 1 << (32 + int(c) - d)
					}
					if int(c)-y >= 0 {
						above |= 1 << (int(c) - y)
					}
					if int(c)+y < tc.n {
						above |= 1 << (32 + int(c) + y)
					}
				}
				key := string(cols)
				if !want[key] || seen[key] || gotSet != uint64(set) || b.below[p] != below || b.above[p] != above {
					t.Fatalf("queens:%d, %d rows: placement %v under set %b: listed twice, not a placement, or masks %x %x (want %x %x)",
						tc.n, tc.k, cols, set, b.below[p], b.above[p], below, above)
				}
				seen[key] = true
			}
		}
	}
}

// TestJoinUnitsIndependent checks that a unit's counts do not depend on
// what its joiner did before (cached tops, far bitsets): each unit is
// counted by a fresh joiner and by one that did the other units in
// reverse order.
func TestJoinUnitsIndependent(t *testing.T) {
	for n := 4; n <= 12; n++ {
		blocks := newHalfBlocks(n)
		units := QueensJoinUnits(n)
		reused := newJoiner(n, nil, blocks)
		for i := len(units) - 1; i >= 0; i-- {
			wantSolutions, wantNodes := newJoiner(n, nil, blocks).countUnit(units[i])
			solutions, nodes := reused.countUnit(units[i])
			if solutions != wantSolutions || nodes != wantNodes {
				t.Fatalf("queens:%d unit %d: %d solutions, %d nodes after other units; %d, %d alone",
					n, i, solutions, nodes, wantSolutions, wantNodes)
			}
		}
	}
}

// TestJoinQuadsMatchBitsets checks the two ways the bottom search holds its
// sets of tops: a counting joiner uses quads where the tops fit in 256 bits,
// an emitting one always uses bitsets in memory. Unit by unit, both find
// the same solutions and visit the same nodes.
func TestJoinQuadsMatchBitsets(t *testing.T) {
	for n := 4; n <= 14; n++ {
		blocks := newHalfBlocks(n)
		counting := newJoiner(n, nil, blocks)
		emitting := newJoiner(n, func([]byte) error { return nil }, blocks)
		for i, u := range QueensJoinUnits(n) {
			s1, n1 := counting.countUnit(u)
			s2, n2 := emitting.countUnit(u)
			if s1 != s2 || n1 != n2 {
				t.Fatalf("queens:%d unit %d: %d solutions, %d nodes counted; %d, %d emitted", n, i, s1, n1, s2, n2)
			}
		}
	}
}

// joinBruteForce counts the solutions of queens:n whose top half (rows
// 0..n/2-1) uses exactly the columns d and, for odd n, whose middle row
// holds its queen in column m: a plain search, as a reference for a join.
func joinBruteForce(n, m int, d uint32) int64 {
	h, all := n/2, uint32(1)<<n-1
	var count int64
	var place func(row int, l, down, r uint32)
	place = func(row int, l, down, r uint32) {
		if row == n {
			count++
			return
		}
		allowed := all &^ d // the bottom half's columns
		switch {
		case row < h:
			allowed = d
		case n%2 == 1 && row == h:
			allowed = 1 << m
		}
		for free := allowed &^ (l | down | r); free != 0; free &= free - 1 {
			bit := free & -free
			place(row+1, (l|bit)<<1&all, down|bit, (r|bit)>>1)
		}
	}
	place(0, 0, 0, 0)
	return count
}

// TestJoinUnitsMatchBruteForce checks each unit's count against plain
// searches of its joins, each weighted by the number of joins it stands
// for, and queens:16's total against the published counts (the totals of
// 4 to 15 are checked in TestCountQueensMatchesOEIS).
func TestJoinUnitsMatchBruteForce(t *testing.T) {
	for n := 4; n <= 11; n++ {
		blocks := newHalfBlocks(n)
		j := newJoiner(n, nil, blocks)
		for i, u := range QueensJoinUnits(n) {
			var want int64
			for _, k := range u.Keys {
				syms, _ := j.images(k.M, k.D)
				want += int64(len(syms)) * joinBruteForce(n, k.M, k.D)
			}
			if got, _ := j.countUnit(u); got != want {
				t.Fatalf("queens:%d unit %d: %d solutions, plain searches of its joins find %d", n, i, got, want)
			}
		}
	}
	const n = 16
	c, err := CountQueensJoin(context.Background(), n, 0)
	known, _ := canon.KnownCounts(canon.Puzzle{Kind: canon.Queens, N: n})
	if err != nil || c.Solutions() != known.Solutions || c.Classes() != known.Classes {
		t.Errorf("queens:%d: %d solutions, %d classes, %v; published %d, %d", n, c.Solutions(), c.Classes(), err, known.Solutions, known.Classes)
	}
}

// TestJoinFarRows checks that a unit's count does not depend on how many of
// the bottom's rows are a far block (4 to 6 on the boards counted here,
// with parts of 2 and 3 rows): unit by unit, the default layout and every
// other far size find the same solutions.
func TestJoinFarRows(t *testing.T) {
	for n := 10; n <= 15; n++ {
		want := newJoiner(n, nil, newHalfBlocks(n))
		var others []*joiner
		for k := 2; k <= min(6, n/2-1); k++ {
			if k != farRows(n) {
				others = append(others, newJoiner(n, nil, newHalfBlocksFar(n, k)))
			}
		}
		for i, u := range QueensJoinUnits(n) {
			solutions, _ := want.countUnit(u)
			for _, j := range others {
				if got, _ := j.countUnit(u); got != solutions {
					t.Fatalf("queens:%d unit %d: %d solutions with %d far rows, %d with %d", n, i, got, j.blocks.far.k, solutions, farRows(n))
				}
			}
		}
	}
}

// TestJoinCounterLarge counts queens:17 and up to SOLCAT_QUEENS_MAX (at most
// 20; about 2, 7, 50 and 400 s on one core) and checks the published
// counts and orbit split. Skipped unless SOLCAT_QUEENS_MAX is set.
func TestJoinCounterLarge(t *testing.T) {
	limit, _ := strconv.Atoi(os.Getenv("SOLCAT_QUEENS_MAX"))
	if limit < 17 {
		t.Skip("set SOLCAT_QUEENS_MAX=17 to 20 to count those boards")
	}
	for n := 17; n <= min(limit, 20); n++ {
		known, _ := canon.KnownCounts(canon.Puzzle{Kind: canon.Queens, N: n})
		c, err := CountQueensJoin(context.Background(), n, 0)
		if err != nil || c.Solutions() != known.Solutions || c.Classes() != known.Classes || c.Orbits != known.Orbits {
			t.Errorf("queens:%d: %d solutions, %d classes, orbits %v, %v; published %d, %d, %v",
				n, c.Solutions(), c.Classes(), c.Orbits, err, known.Solutions, known.Classes, known.Orbits)
		}
	}
}
