package enumerate

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"solcat/canon"
)

// TestHalvesCounter counts queens:4 to 16 with the halves counter, with
// the vector loops where the CPU has them and word by word, and checks the
// counts against the published ones. The join counter's counts of the same
// boards are checked in TestCountQueensMatchesOEIS (to 15, on one and two
// goroutines) and TestJoinUnitsMatchBruteForce (16).
func TestHalvesCounter(t *testing.T) {
	last := 16
	if testing.Short() {
		last = 14
	}
	for n := 4; n <= last; n++ {
		t.Run(fmt.Sprintf("queens:%d", n), func(t *testing.T) {
			known, _ := canon.KnownCounts(canon.Puzzle{Kind: canon.Queens, N: n})
			for _, vector := range []bool{vectorMatch, false} {
				q := newQueensCounter(n, true)
				if !vector {
					q = wordByWord(q)
				}
				got, err := countQueens(context.Background(), q, 2)
				if err != nil {
					t.Fatal(err)
				}
				if got.Solutions() != known.Solutions || got.Orbits != known.Orbits {
					t.Errorf("vector loops %v: %d solutions, orbits %v; published %d, %v", vector, got.Solutions(), got.Orbits, known.Solutions, known.Orbits)
				}
			}
		})
	}
}

// wordByWord makes the counter's workers use the Go loops.
func wordByWord(q QueensCounter) QueensCounter {
	next := q.workers.New
	q.workers.New = func() any {
		m := next().(*halvesMatcher)
		m.vector = false
		return m
	}
	return q
}

// TestHalvesUnits counts every unit of queens:4 to 11 against a plain
// reference: each item's halves listed by a search row by row, every top
// with no queen on a long diagonal tried against every bottom queen by
// queen. Then every unit of queens:12 and 13 twice: in order with the
// vector loops (where the CPU has them), and backwards word by word: a
// unit's counts and nodes do not depend on what was counted before nor on
// the loops.
func TestHalvesUnits(t *testing.T) {
	for n := 4; n <= 11; n++ {
		t.Run(fmt.Sprintf("queens:%d plain", n), func(t *testing.T) {
			m := newHalvesMatcher(n, newHalvesBlocks(n))
			for i, u := range queensHalvesUnits(n) {
				got, _ := m.countUnit(u)
				var want int64
				for _, k := range u.Keys {
					want += plainItemCount(n, k.M, k.D)
				}
				if got != want {
					t.Errorf("unit %d (%v...): %d solutions, the plain count %d", i, u.Keys[0], got, want)
				}
			}
		})
	}
	for _, n := range []int{12, 13} {
		t.Run(fmt.Sprintf("queens:%d loops", n), func(t *testing.T) {
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
			known, _ := canon.KnownCounts(canon.Puzzle{Kind: canon.Queens, N: n})
			if total != known.Solutions {
				t.Errorf("%d solutions over the units, published %d", total, known.Solutions)
			}
			m = newHalvesMatcher(n, blocks)
			m.vector = false
			for i := len(units) - 1; i >= 0; i-- {
				var got counts
				got.solutions, got.nodes = m.countUnit(units[i])
				if got != forward[i] {
					t.Errorf("unit %d: %+v, then %+v", i, forward[i], got)
				}
			}
		})
	}
}

// plainItemCount counts what the halves counter's item (m, d) stands for
// by a plain search: the weighted pairs of a top on d with no queen on a
// long diagonal and a bottom on the columns left, both clear of the middle
// queen, that do not attack each other; and the same with the two sets
// swapped if the item counts both.
func plainItemCount(n, m int, d uint32) int64 {
	item := halvesItemOf(n, m, d)
	if !item.listed {
		return 0
	}
	free := uint32(1)<<n - 1
	if m >= 0 {
		free &^= 1 << m
	}
	y := free ^ d
	count := plainPairs(n, m, d, y)
	if item.both {
		count += plainPairs(n, m, y, d)
	}
	return item.weight * count
}

// plainPairs counts the weighted pairs of a top on the columns top and a
// bottom on the columns bottom.
func plainPairs(n, m int, top, bottom uint32) int64 {
	h := n / 2
	type queen struct{ r, c int }
	attacks := func(a, b queen) bool {
		dr, dc := a.r-b.r, a.c-b.c
		return dc == 0 || dr == dc || dr == -dc
	}
	var halves func(rows []int, cols uint32, placed []queen, out *[][]queen)
	halves = func(rows []int, cols uint32, placed []queen, out *[][]queen) {
		if len(rows) == 0 {
			*out = append(*out, append([]queen(nil), placed...))
			return
		}
		for c := 0; c < n; c++ {
			if cols&(1<<c) == 0 {
				continue
			}
			q := queen{rows[0], c}
			ok := m < 0 || !attacks(q, queen{h, m})
			for _, p := range placed {
				ok = ok && !attacks(q, p)
			}
			if ok {
				halves(rows[1:], cols&^(1<<c), append(placed, q), out)
			}
		}
	}
	var topRows, bottomRows []int
	for r := 0; r < h; r++ {
		topRows = append(topRows, r)
		bottomRows = append(bottomRows, n-1-r)
	}
	var tops, bottoms [][]queen
	halves(topRows, top, nil, &tops)
	halves(bottomRows, bottom, nil, &bottoms)
	long := func(half []queen) int {
		k := 0
		for _, q := range half {
			if q.c == q.r || q.c == n-1-q.r {
				k++
			}
		}
		return k
	}
	var count int64
	for _, t := range tops {
		if long(t) > 0 {
			continue
		}
		for _, b := range bottoms {
			ok := true
			for _, p := range t {
				for _, q := range b {
					ok = ok && !attacks(p, q)
				}
			}
			if ok {
				count += 1 << long(b)
			}
		}
	}
	return count
}

// TestHalvesItemsStandForEveryJoin checks the symmetry weighting: the
// items the units list, each counted as many times as its weight, once
// more if it counts both its sets, are every set of n/2 columns (with
// every middle column outside it when n is odd).
func TestHalvesItemsStandForEveryJoin(t *testing.T) {
	for n := 4; n <= 17; n++ {
		var weighted int64
		for _, u := range queensHalvesUnits(n) {
			for _, k := range u.Keys {
				item := halvesItemOf(n, k.M, k.D)
				if !item.listed {
					t.Fatalf("queens:%d: unit lists %v, which is not an item", n, k)
				}
				weighted += item.weight
				if item.both {
					weighted += item.weight
				}
			}
		}
		var want int64
		for d := uint32(0); d < 1<<n; d++ {
			if bits.OnesCount32(d) != n/2 {
				continue
			}
			if n%2 == 0 {
				want++
			} else {
				want += int64(n - n/2) // the middle queen in any other column
			}
		}
		if weighted != want {
			t.Errorf("queens:%d: the items stand for %d sets, there are %d", n, weighted, want)
		}
	}
}

// TestHalfKeys checks on queens:8 and 9 that a top and a bottom on
// complementary columns attack each other exactly when their keys share a
// bit, and that the middle queen's key meets the key of a half exactly
// when it attacks it: every top against every bottom, the attacks tested
// queen by queen.
func TestHalfKeys(t *testing.T) {
	for _, n := range []int{8, 9} {
		t.Run(fmt.Sprintf("queens:%d", n), func(t *testing.T) {
			h := n / 2
			all := uint32(1)<<n - 1
			lay := newKeyLayout(n)
			type half struct {
				cols []int // by row of the half, top to bottom
				key  uint64
				set  uint32
			}
			// Placements of rows 0..h-1 with where their diagonals cross
			// row h.
			var placements []half
			var place func(y int, l, down, r uint32, cols []int)
			place = func(y int, l, down, r uint32, cols []int) {
				if y == h {
					placements = append(placements, half{cols: append([]int(nil), cols...), set: down, key: lay.key(l, r, 0)})
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
				for mid := 0; mid < n-1 && n%2 == 1; mid++ {
					if top.set&(1<<mid) != 0 {
						continue // the columns of a half leave the middle queen's out
					}
					attack := false
					for r, c := range top.cols {
						d := c - mid
						attack = attack || d == h-r || -d == h-r
					}
					if attack != (top.key&lay.midKey(mid) != 0) {
						t.Fatalf("top %v, middle queen in column %d: attack %v, keys %b and %b", top.cols, mid, attack, top.key, lay.midKey(mid))
					}
				}
				for _, b := range placements {
					if b.set&top.set != 0 {
						continue
					}
					// b turned upside down: its row y is the board's row n-1-y.
					attack := false
					for r1, c1 := range top.cols {
						for y, c2 := range b.cols {
							r2 := n - 1 - y
							if d := c1 - c2; d == r2-r1 || -d == r2-r1 {
								attack = true
							}
						}
					}
					if attack != (lay.top(top.key)&b.key != 0) {
						t.Fatalf("top %v, bottom %v (upside down): attack %v, keys %b and %b", top.cols, b.cols, attack, lay.top(top.key), b.key)
					}
					pairs++
				}
			}
			if pairs == 0 {
				t.Fatal("no pairs tested")
			}
		})
	}
}

// TestHalfBlocks checks the blocks' keys: the keys of the halves made of
// an upper and a lower block, as joinHalvesGo makes them, are the keys of
// the halves a plain search finds, with their queens on the long
// diagonals.
func TestHalfBlocks(t *testing.T) {
	for _, n := range []int{9, 12} {
		t.Run(fmt.Sprintf("queens:%d", n), func(t *testing.T) {
			h := n / 2
			all := uint32(1)<<n - 1
			lay := newKeyLayout(n)
			want := map[uint32][]uint64{}
			var place func(y int, l, down, r uint32, long uint64)
			place = func(y int, l, down, r uint32, long uint64) {
				if y == h {
					want[down] = append(want[down], lay.key(l, r, long))
					return
				}
				for c := 0; c < n; c++ {
					bit := uint32(1) << c
					if (l|down|r)&bit == 0 {
						onLong := uint64(0)
						if c == y || c == n-1-y {
							onLong = 1
						}
						place(y+1, (l|bit)<<1&all, down|bit, (r|bit)>>1, long+onLong)
					}
				}
			}
			place(0, 0, 0, 0, 0)
			m := newHalvesMatcher(n, newHalvesBlocks(n))
			for _, vector := range []bool{vectorMatch, false} {
				m.vector = vector
				sets := 0
				for d, keys := range want {
					got := m.halves(nil, d, 0)
					if !sameMultiset(got, keys) {
						t.Fatalf("vector %v, columns %b: %d halves %x, a plain search finds %d %x", vector, d, len(got), got, len(keys), keys)
					}
					sets++
				}
				if sets == 0 {
					t.Fatal("no sets tested")
				}
			}
		})
	}
}

func sameMultiset(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[uint64]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, c := range seen {
		if c != 0 {
			return false
		}
	}
	return true
}

// TestJoinHalvesVector compares the vector loop that pairs the blocks with
// the Go one, on queens:14's and 15's blocks: every cut of some random
// column sets, with every middle queen.
func TestJoinHalvesVector(t *testing.T) {
	if !vectorMatch {
		t.Skip("this CPU has no AVX-512 (with VPOPCNTQ): the halves counter's vector loops are not used here")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{14, 15} {
		m := newHalvesMatcher(n, newHalvesBlocks(n))
		lay := newKeyLayout(n)
		for range 200 {
			d := randomSet(rng, n, n/2)
			for mid := -1; mid < n; mid++ {
				var midKey uint64
				if mid >= 0 {
					if n%2 == 0 || d&(1<<mid) != 0 {
						continue
					}
					midKey = lay.midKey(mid)
				}
				m.vector = true
				got := m.halves(nil, d, midKey)
				m.vector = false
				want := m.halves(nil, d, midKey)
				if !sameMultiset(got, want) {
					t.Fatalf("queens:%d, columns %b, middle %d: vector %d halves, Go %d", n, d, mid, len(got), len(want))
				}
			}
		}
	}
}

// TestJoinHalvesLongLists compares the vector loop that pairs the blocks
// with the Go one on made-up blocks whose column sets have up to 800
// placements (queens:22's lower block has up to 720 a set; 800 is past
// it), with and without a middle queen's key.
func TestJoinHalvesLongLists(t *testing.T) {
	if !vectorMatch {
		t.Skip("this CPU has no AVX-512 (with VPOPCNTQ): the halves counter's vector loops are not used here")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, size := range []int{9, 255, 256, 300, 800} {
		b := &halvesBlocks{upper: &halfBlock{}, lower: &halfBlock{}}
		for _, blk := range []*halfBlock{b.upper, b.lower} {
			for range 3 * size {
				blk.mask = append(blk.mask, rng.Uint64()&rng.Uint64()&rng.Uint64())
				blk.key = append(blk.key, rng.Uint64()&rng.Uint64())
			}
			blk.most = 3 * size
		}
		// Two splits, then the zeros the vector loop reads ahead.
		splits := append([]int32{0, int32(size), 0, int32(size), int32(size), int32(2 * size), int32(size), int32(3 * size)}, make([]int32, joinReadAhead)...)[:8]
		pairs := int64(size*size + size*2*size)
		for _, midKey := range []uint64{0, 1 << 5, 1<<61 | 1<<7} {
			var scratch []uint64
			got := joinHalves(nil, b, splits, pairs, midKey, true, &scratch)
			want := joinHalvesGo(nil, b, splits, midKey)
			if !sameMultiset(got, want) || len(want) == 0 {
				t.Errorf("%d placements a set, middle key %x: vector %d halves, Go %d", size, midKey, len(got), len(want))
			}
		}
	}
}

// TestTopsBitsetsVector compares the vector loops that pick the tops and
// make their bitsets with the Go ones, on made-up keys with every weight
// and the flag bit of odd n, up to 1,000 of them.
func TestTopsBitsetsVector(t *testing.T) {
	if !vectorMatch {
		t.Skip("this CPU has no AVX-512 (with VPOPCNTQ): the halves counter's vector loops are not used here")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{17, 18} {
		lay := newKeyLayout(n)
		c := halvesCuts(n, lay)
		cuts := [2]uint64{1 << c[1], 1 << c[3]}
		for _, count := range []int{1, 7, 64, 65, 255, 256, 257, 1000} {
			halves := make([]uint64, count)
			for i := range halves {
				halves[i] = rng.Uint64()&(1<<(2*lay.fieldBits)-1) | uint64(rng.IntN(3))<<62 | uint64(rng.IntN(2))<<61
			}
			room := count + 8
			got := make([]uint64, 4*room)
			want := make([]uint64, 4*room)
			groups := cleanTops(got, halves, lay, cuts, room, true)
			if wantGroups := cleanTopsGo(want, halves, lay, cuts, room); groups != wantGroups {
				t.Fatalf("queens:%d, %d halves: vector picks groups of %v tops, Go %v", n, count, groups, wantGroups)
			}
			for g, size := range groups {
				if !slicesEqual(got[g*room:g*room+size], want[g*room:g*room+size]) {
					t.Fatalf("queens:%d, %d halves: group %d differs", n, count, g)
				}
			}
			k := groups[0]
			tops := make([]uint64, (k+63)/64*64)
			copy(tops, got[:k])
			w := (k + 63) / 64 / 8 * 8
			if w < (k+63)/64 {
				w += 8
			}
			bytes := (2*lay.fieldBits + 7) / 8
			a := make([]uint64, 8*bytes*w)
			b := make([]uint64, 8*bytes*w)
			topsBitsets(a, w, bytes, tops, k, true)
			topsBitsetsGo(b, w, bytes, tops, k)
			for i := range a {
				if word := i % w; word < (k+63)/64 && a[i] != b[i] {
					t.Fatalf("queens:%d, %d tops: the bitset of bit %d, word %d: vector %x, Go %x", n, k, i/w, word, a[i], b[i])
				}
			}
		}
	}
}

func slicesEqual(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func randomSet(rng *rand.Rand, n, k int) uint32 {
	var d uint32
	for bits.OnesCount32(d) < k {
		d |= 1 << rng.IntN(n)
	}
	return d
}

// TestMatchBottomsVector compares the vector loops with the Go one on
// random tables and keys, for every number of chunks and chunk bits the
// vector loops have, with the bottoms reading all lanes or their cut
// groups' intervals, and the chunk tables built both ways.
func TestMatchBottomsVector(t *testing.T) {
	if !vectorMatch {
		t.Skip("this CPU has no AVX-512 (with VPOPCNTQ): the halves counter's vector loops are not used here")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for chunks := minVectorChunks; chunks <= maxVectorChunks; chunks++ {
		for cb := minVectorBits; cb <= maxVectorBits; cb++ {
			for _, lanes := range []int{1, 2, 5} {
				t.Run(fmt.Sprintf("%d chunks of %d bits, %d lanes", chunks, cb, lanes), func(t *testing.T) {
					w := 8 * lanes
					tops := 64*w - rng.IntN(64)
					notHave := make([]uint64, chunks*cb*w)
					valid := make([]uint64, w)
					for i := range valid {
						valid[i] = validWord(tops, i)
					}
					for i := range notHave {
						notHave[i] = (rng.Uint64() | rng.Uint64() | rng.Uint64()) & valid[i%w] // dense, so that ANDs leave some bits
					}
					table := matchTable{lanes: lanes, laneWords: 8, chunks: chunks, chunkBits: cb}
					table.words = make([]uint64, chunks<<cb*w)
					// The live bits: up to chunks*cb of the 62 a key may have,
					// at random; the chunk bits' rows in another order.
					for _, p := range rng.Perm(62)[:min(chunks*cb, 62)] {
						table.live |= 1 << p
					}
					table.rowOf = rng.Perm(chunks * cb)
					chunkTables(&table, notHave, valid, true)
					want := table
					want.words = make([]uint64, len(table.words))
					chunkTablesGo(&want, notHave, valid)
					if !slicesEqual(table.words, want.words) {
						t.Fatal("the chunk tables differ")
					}
					bottoms := make([]uint64, 1000)
					for i := range bottoms {
						bottoms[i] = rng.Uint64()&(1<<62-1) | uint64(rng.IntN(3))<<62
					}
					for _, cut := range []bool{false, true} {
						// Without cut bits every bottom reads every lane; with
						// four, each cut group some at random.
						table.cutMask, table.intervals = 0, [16][2]int{{0, lanes}}
						if cut {
							table.cutMask = 1<<3 | 1<<20 | 1<<33 | 1<<50
							for g := range table.intervals {
								from := rng.IntN(lanes + 1)
								table.intervals[g] = [2]int{from, from + rng.IntN(lanes+1-from)}
							}
						}
						for _, k := range []int{1, 7, len(bottoms)} {
							if got, want := matchBottoms(&table, bottoms[:k], true), matchBottomsGo(&table, bottoms[:k]); got != want || want == 0 && !cut {
								t.Errorf("cut groups %v, %d bottoms: vector %d, Go %d", cut, k, got, want)
							}
						}
					}
				})
			}
		}
	}
}

// TestMatchTables matches made-up halves, as many as the tables of
// queens:17 to 23 hold (up to 20 lanes of tops, grouped by their cut bits
// from two lanes on) and as few as are tested one by one, against made-up
// bottoms, with the vector loops (where the CPU has them) and word by
// word, and compares the counts with every pair tried key by key.
func TestMatchTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{17, 18, 21} {
		lay := newKeyLayout(n)
		keyBits := uint64(1)<<(2*lay.fieldBits) - 1
		for _, count := range []int{5, 60, 100, 200, 1500, 3000, 12000, 30000} {
			t.Run(fmt.Sprintf("queens:%d, %d halves", n, count), func(t *testing.T) {
				// Keys of about half their bits, some of them left out to
				// leave dead bits.
				dead := rng.Uint64()&rng.Uint64()&rng.Uint64() | 1<<lay.fieldBits
				key := func() uint64 {
					return rng.Uint64()&rng.Uint64()&keyBits&^dead | uint64(rng.IntN(3))<<62 | uint64(rng.IntN(2))<<61
				}
				tops := make([]uint64, count)
				for i := range tops {
					tops[i] = key()
				}
				bottoms := make([]uint64, 301)
				for i := range bottoms {
					bottoms[i] = key()
				}
				var want int64
				for _, tk := range tops {
					if tk>>62 != 0 {
						continue
					}
					for _, b := range bottoms {
						if lay.top(tk)&b&keyBits == 0 {
							want += 1 << (b >> 62)
						}
					}
				}
				_, clean := orKeysGo(tops)
				all, _ := orKeysGo(bottoms)
				live := lay.top(clean) & all & keyBits
				for _, vector := range []bool{vectorMatch, false} {
					m := newHalvesMatcher(n, nil)
					m.vector = vector
					if got := m.match(tops, bottoms, live); got != want {
						t.Errorf("vector loops %v: %d pairs (a table of %d lanes, cut mask %x), key by key %d", vector, got, m.table.lanes, m.table.cutMask, want)
					}
				}
			})
		}
	}
}

// TestMatchDirectVector compares the vector loop that tests every bottom
// against every top with the Go one, on every number of tops up to 9 and
// of bottoms up to 19 (the vector loop takes 8 bottoms at a time, and its
// tops two at a time).
func TestMatchDirectVector(t *testing.T) {
	if !vectorMatch {
		t.Skip("this CPU has no AVX-512 (with VPOPCNTQ): the halves counter's vector loops are not used here")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	lay := newKeyLayout(21)
	keyBits := uint64(1)<<(2*lay.fieldBits) - 1
	key := func() uint64 { return rng.Uint64() & rng.Uint64() & rng.Uint64() & keyBits }
	for k := 1; k <= 9; k++ {
		for n := 0; n <= 19; n++ {
			tops, bottoms := make([]uint64, k), make([]uint64, n)
			for i := range tops {
				tops[i] = key()
			}
			for i := range bottoms {
				bottoms[i] = key() | uint64(rng.IntN(3))<<62 | uint64(rng.IntN(2))<<61
			}
			if got, want := matchDirect(tops, bottoms, true), matchDirectGo(tops, bottoms); got != want {
				t.Errorf("%d tops, %d bottoms: %d pairs, the Go loop %d", k, n, got, want)
			}
		}
	}
}
