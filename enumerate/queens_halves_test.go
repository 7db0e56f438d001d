package enumerate

import (
	"context"
	"math/rand/v2"
	"testing"

	"solcat/canon"
)

// TestHalvesCounter counts the even boards with the halves counter (with
// the vector loop where the CPU has it, else word by word) and checks the
// counts against the published ones and the join counter's.
func TestHalvesCounter(t *testing.T) {
	last := 16
	if testing.Short() {
		last = 14
	}
	for n := 4; n <= last; n += 2 {
		got, err := countQueens(context.Background(), newQueensCounter(n, true), 2)
		if err != nil {
			t.Fatal(err)
		}
		known, _ := canon.KnownCounts(canon.Puzzle{Kind: canon.Queens, N: n})
		if got.Solutions() != known.Solutions || got.Orbits != known.Orbits {
			t.Errorf("queens:%d: %d solutions, orbits %v; published %d, %v", n, got.Solutions(), got.Orbits, known.Solutions, known.Orbits)
		}
		join, err := CountQueensJoin(context.Background(), n, 2)
		if err != nil || join.Solutions() != got.Solutions() {
			t.Errorf("queens:%d: join counter %d (%v), halves counter %d", n, join.Solutions(), err, got.Solutions())
		}
	}
}

// TestHalvesUnits counts every unit of queens:12 twice: in order with one
// matcher, and backwards with another, word by word. The counts and nodes
// of a unit do not depend on what was counted before nor on the loop.
func TestHalvesUnits(t *testing.T) {
	n := 12
	blocks := newHalvesBlocks(n)
	units := queensHalvesUnits(n)
	type counts struct{ solutions, nodes int64 }
	forward := make([]counts, len(units))
	m := newHalvesMatcher(n, blocks)
	var total int64
	for i, u := range units {
		forward[i].solutions, forward[i].nodes = m.countUnit(u)
		total += forward[i].solutions
	}
	if total != 14200 {
		t.Errorf("queens:12: %d solutions over the units", total)
	}
	m = newHalvesMatcher(n, blocks)
	m.match = matchBottomsGo
	for i := len(units) - 1; i >= 0; i-- {
		var got counts
		got.solutions, got.nodes = m.countUnit(units[i])
		if got != forward[i] {
			t.Errorf("unit %d: %+v, then %+v", i, forward[i], got)
		}
	}
}

// TestMatchBottomsVector compares the vector loop with the Go one on
// random tables and keys.
func TestMatchBottomsVector(t *testing.T) {
	if !vectorMatch {
		t.Skip("this CPU has no AVX-512 (with VPOPCNTQ): the halves counter's vector loop is not used here")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, cb := range []int{5, 6} {
		for _, w := range []int{8, 16, 40} {
			table := make([]uint64, matchChunks<<cb*w)
			for i := range table {
				table[i] = rng.Uint64() | rng.Uint64() // dense, so that ANDs of 7 leave some bits
			}
			bottoms := make([]uint64, 1000)
			for i := range bottoms {
				bottoms[i] = rng.Uint64()&(1<<(matchChunks*cb)-1) | uint64(rng.IntN(3))<<62
			}
			for _, k := range []int{1, 7, len(bottoms)} {
				if got, want := matchBottoms(table, w, cb, bottoms[:k]), matchBottomsGo(table, w, cb, bottoms[:k]); got != want || want == 0 {
					t.Errorf("chunks of %d bits, %d words, %d bottoms: vector %d, Go %d", cb, w, k, got, want)
				}
			}
		}
	}
}

// TestHalfKeys checks on queens:8 that a top and a bottom on complementary
// columns attack each other exactly when their keys share a bit: every top
// against every bottom, the attack tested queen by queen.
func TestHalfKeys(t *testing.T) {
	n, h := 8, 4
	all := uint32(1)<<n - 1
	type half struct {
		cols []int // by row of the half, top to bottom
		key  uint64
		set  uint32
	}
	// Placements of rows 0..h-1 with where their diagonals cross row h.
	var placements []half
	var place func(y int, l, down, r uint32, cols []int)
	place = func(y int, l, down, r uint32, cols []int) {
		if y == h {
			placements = append(placements, half{cols: append([]int(nil), cols...), set: down, key: uint64(l)<<32 | uint64(r)})
			return
		}
		for c := 0; c < n; c++ {
			bit := uint32(1) << c
			if (l|down|r)&bit == 0 {
				place(y+1, (l|bit)<<1&all, down|bit, (r|bit)>>1, append(cols, c))
			}
		}
	}
	place(0, 0, 0, 0, nil)
	pairs := 0
	for _, top := range placements {
		tkey := halfKey(n, uint32(top.key>>32), uint32(top.key), false)
		for _, b := range placements {
			if b.set != all^top.set {
				continue
			}
			// b turned upside down: its row y is the board's row n-1-y.
			bkey := halfKey(n, uint32(b.key>>32), uint32(b.key), true)
			attack := false
			for r1, c1 := range top.cols {
				for y, c2 := range b.cols {
					r2 := n - 1 - y
					if d := c1 - c2; d == r2-r1 || -d == r2-r1 {
						attack = true
					}
				}
			}
			if attack != (tkey&bkey != 0) {
				t.Fatalf("top %v, bottom %v (upside down): attack %v, keys %b and %b", top.cols, b.cols, attack, tkey, bkey)
			}
			pairs++
		}
	}
	if pairs == 0 {
		t.Fatal("no pairs tested")
	}
}
