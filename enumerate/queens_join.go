package enumerate

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// The join counter counts the solutions of queens:n without searching the
// board row by row from top to bottom. It cuts the board into a top half
// (rows 0..h-1, h = n/2) and a bottom half (the rows below, after the middle
// row when n is odd), and for each set D of h columns joins the placements
// of the top half that use exactly the columns D with those of the bottom
// half that use the other columns:
//
//   - The tops of D are listed by a search restricted to D. What a top means
//     to the rows below is where its two diagonals cross the boundary row
//     (row h): two masks of n bits.
//   - Each top becomes a bit position in bitsets, one per boundary square
//     and direction: the tops whose diagonal crosses it. The bottom half is
//     then searched from the boundary outward, carrying the set of tops it
//     has not attacked yet: a queen at distance k from the boundary, column
//     c, removes the tops whose diagonals cross the boundary at c+k and c-k
//     (the only diagonals it shares with the top half). A bottom that leaves
//     no top is abandoned at once; a complete bottom adds the tops left.
//
// When n is odd the middle row holds one queen, in column m: both halves
// avoid its column and diagonals, and D covers h of the other columns.
//
// Symmetry: the left-right mirror and the top-bottom flip carry joins of
// (m, D) onto joins of their images (the mirror reverses D and m; the flip
// swaps the halves, so D becomes the columns left to the bottom half). Only
// the smallest of the up to four images is searched, its count weighted by
// their number: about four times less work (a join that is its own image
// has fewer).
//
// This gives the number of solutions, not their classes. Burnside's lemma
// gives those from two small counts: no solution of n >= 2 is its own
// mirror image in any of the four axes, so with f90 and f180 the solutions
// a quarter and a half turn map onto themselves, the classes with 2 members
// are f90/2, those with 4 are (f180-f90)/4, and the rest have 8.

// A JoinUnit is a work unit of the join counter: consecutive column sets
// (with the middle queen's column when n is odd) that stand for their
// images.
type JoinUnit struct {
	n    int
	Keys []JoinKey
}

// A JoinKey is one join: the top half's columns D and, for odd n, the
// middle queen's column M (-1 for even n).
type JoinKey struct {
	M int
	D uint32
}

// QueensJoinUnits lists the work units of the join counter for queens:n
// (n >= 4): the joins that are the smallest of their images, a column set
// next to its mirror image, cut into units of equal numbers of joins (16,
// or more to keep to about 4,000 units; the last unit takes the rest).
func QueensJoinUnits(n int) []JoinUnit {
	h := n / 2
	all := uint32(1)<<n - 1
	j := newJoiner(n, nil)
	var keys []JoinKey
	for d := uint32(1)<<h - 1; d <= all; {
		for m := -1; m < n; m++ {
			if (m < 0) == (n%2 == 0) && (m < 0 || d&(1<<m) == 0) {
				if _, smallest := j.images(m, d); smallest {
					keys = append(keys, JoinKey{m, d})
				}
			}
		}
		// The next larger number with as many bits set (Gosper's hack).
		low := d & -d
		next := d + low
		d = next | (next^d)/low>>2
	}
	// A set and its mirror image side by side: the tops of one are the
	// mirrored tops of the other (odd n has both among its joins).
	slices.SortStableFunc(keys, func(a, b JoinKey) int {
		return cmp.Compare(min(a.D, reverseBits(a.D, n)), min(b.D, reverseBits(b.D, n)))
	})
	size := max(16, len(keys)/4000)
	var units []JoinUnit
	for len(keys) > 0 {
		k := min(size, len(keys))
		units = append(units, JoinUnit{n, keys[:k:k]})
		keys = keys[k:]
	}
	return units
}

// Key identifies the unit in a saved count: a changed layout of units is
// noticed instead of mixed in.
func (u JoinUnit) Key() []byte {
	key := []byte{'J', byte(u.n), byte(u.Keys[0].M)}
	key = binary.BigEndian.AppendUint32(key, u.Keys[0].D)
	return binary.BigEndian.AppendUint32(key, uint32(len(u.Keys)))
}

// countUnit counts the solutions the unit's joins stand for, and the
// search nodes it visited.
func (j *joiner) countUnit(u JoinUnit) (solutions, nodes int64) {
	// Forget the last unit's tops: the nodes counted must not depend on
	// which units a worker did before.
	j.solutions, j.nodes, j.cached = 0, 0, false
	for _, k := range u.Keys {
		j.join(k.M, k.D)
	}
	return j.solutions, j.nodes
}

// joiner holds one worker's buffers.
type joiner struct {
	n, h   int
	all    uint32
	middle int // the middle queen's column (odd n), or -1

	topL, topR []uint32 // each top's boundary crossings: down-right, down-left diagonals
	kept       []int32  // the tops the bottom's first queen leaves
	topCols    []byte   // with emit: each top's columns, h bytes
	allL, allR []uint32 // the same for all tops of cachedD, middle queen or not
	allCols    []byte
	cached     bool
	cachedD    uint32
	words      int      // 64-bit words per bitset: one bit per top
	crossL     []uint64 // n bitsets: the tops whose down-right diagonal crosses square c
	crossR     []uint64 // n bitsets: ... whose down-left diagonal crosses square c
	left       []uint64 // the tops not attacked yet, one bitset per bottom row

	blockBottom [32]uint32 // squares the middle queen attacks, by row of the bottom half

	weight    int64
	solutions int64
	nodes     int64

	emit   func(sol []byte) error // nil when counting
	syms   []int                  // the symmetries giving the current join's images
	bottom [32]byte               // with emit: the bottom's columns by distance from the boundary
	sol    []byte
	err    error
}

func newJoiner(n int, emit func([]byte) error) *joiner {
	return &joiner{n: n, h: n / 2, all: uint32(1)<<n - 1, middle: -1, emit: emit, sol: make([]byte, n)}
}

func reverseBits(x uint32, n int) uint32 { return bits.Reverse32(x) >> (32 - n) }

// The symmetries used, acting on (m, D): identity, mirror, flip, half turn.
const (
	symIdentity = iota
	symMirror
	symFlip
	symHalfTurn
)

// image is (m, D) under symmetry s; m is -1 for even n.
func (j *joiner) image(s, m int, d uint32) (int, uint32) {
	rest := j.all ^ d // the bottom half's columns (and the middle queen's)
	if m >= 0 {
		rest ^= 1 << m
	}
	if s == symFlip || s == symHalfTurn {
		d = rest
	}
	if (s == symMirror || s == symHalfTurn) && m >= 0 {
		m = j.n - 1 - m
	}
	if s == symMirror || s == symHalfTurn {
		d = reverseBits(d, j.n)
	}
	return m, d
}

// images lists the symmetries that carry (m, d) onto its distinct images,
// and whether (m, d) is the smallest of them.
func (j *joiner) images(m int, d uint32) (syms []int, smallest bool) {
	var seen [4]JoinKey
	distinct := 0
	syms = j.syms[:0]
	for s := range 4 {
		im, id := j.image(s, m, d)
		if im < m || im == m && id < d {
			return nil, false // the smaller image stands for this one
		}
		dup := false
		for _, x := range seen[:distinct] {
			dup = dup || x.M == im && x.D == id
		}
		if !dup {
			seen[distinct] = JoinKey{im, id}
			distinct++
			syms = append(syms, s)
		}
	}
	j.syms = syms
	return syms, true
}

// join counts the solutions joining tops on the columns d (with the middle
// queen in column m when n is odd) to bottoms, times the number of images.
func (j *joiner) join(m int, d uint32) {
	syms, smallest := j.images(m, d)
	if !smallest {
		return
	}
	j.weight = int64(len(syms))
	j.setMiddle(m)
	j.tops(d)
	if len(j.topL) == 0 {
		return
	}
	j.bottoms((j.all ^ d) &^ j.middleBit())
}

func (j *joiner) middleBit() uint32 {
	if j.middle < 0 {
		return 0
	}
	return 1 << j.middle
}

// setMiddle records the middle queen's attacks on the bottom half's rows
// (the tops it attacks are those crossing the middle row at its column).
func (j *joiner) setMiddle(m int) {
	j.middle = m
	j.blockBottom = [32]uint32{}
	if m < 0 {
		return
	}
	for y := 0; y < j.h; y++ {
		if k := y + 1; m+k < j.n { // k: distance from the middle row
			j.blockBottom[y] |= 1 << (m + k)
		}
		if k := y + 1; m-k >= 0 {
			j.blockBottom[y] |= 1 << (m - k)
		}
	}
}

// tops lists the placements of rows 0..h-1 using exactly the columns d
// that the middle queen (if any) does not attack, with where their
// diagonals cross row h. Joins come sorted by d, so the placements of the
// last d are kept for the next middle column.
func (j *joiner) tops(d uint32) {
	switch {
	case j.cached && j.cachedD == d:
	case j.cached && j.cachedD == reverseBits(d, j.n):
		j.mirrorTops()
	default:
		j.allTops(d)
	}
	if j.middle < 0 {
		j.topL, j.topR, j.topCols = j.allL, j.allR, j.allCols
		return
	}
	j.topL, j.topR, j.topCols = j.topL[:0], j.topR[:0], j.topCols[:0]
	mbit := j.middleBit()
	for i, l := range j.allL {
		if (l|j.allR[i])&mbit == 0 {
			j.topL, j.topR = append(j.topL, l), append(j.topR, j.allR[i])
			if j.emit != nil {
				j.topCols = append(j.topCols, j.allCols[i*j.h:(i+1)*j.h]...)
			}
		}
	}
}

// mirrorTops turns the cached tops into those of the mirrored columns:
// column c becomes n-1-c, so a down-right crossing at c becomes a down-left
// one at n-1-c. Cheaper than searching again.
func (j *joiner) mirrorTops() {
	n := j.n
	j.cachedD = reverseBits(j.cachedD, n)
	for i, l := range j.allL {
		j.allL[i], j.allR[i] = reverseBits(j.allR[i], n), reverseBits(l, n)
	}
	for i, c := range j.allCols {
		j.allCols[i] = byte(n-1) - c
	}
}

// allTops lists the placements of rows 0..h-1 using exactly the columns d.
func (j *joiner) allTops(d uint32) {
	j.cached, j.cachedD = true, d
	h, all := j.h, j.all
	tl, tr, cols := j.allL[:0], j.allR[:0], j.allCols[:0]
	var free, left, down, right [32]uint32 // by row, indexed y&31 (no bounds checks)
	var col [32]byte
	nodes := int64(0)
	y := 0
	free[0] = d
	for {
		f := free[y&31]
		if f == 0 {
			if y == 0 {
				break
			}
			y--
			continue
		}
		bit := f & -f
		free[y&31] = f ^ bit
		nodes++
		col[y&31] = byte(bits.TrailingZeros32(bit))
		l, dn, r := (left[y&31]|bit)<<1&all, down[y&31]|bit, (right[y&31]|bit)>>1
		if y == h-1 {
			tl, tr = append(tl, l), append(tr, r)
			if j.emit != nil {
				cols = append(cols, col[:h]...)
			}
			continue
		}
		// The last row of the half must keep a free square.
		if k := uint(h - 2 - y); d&^(l<<k|dn|r>>k) == 0 {
			continue
		}
		y++
		left[y&31], down[y&31], right[y&31] = l, dn, r
		free[y&31] = d &^ (l | dn | r)
	}
	j.allL, j.allR, j.allCols = tl, tr, cols
	j.nodes += nodes
}

// buildCrossings fills the bitsets of boundary crossings of the kept tops
// (bit i stands for top kept[i]).
func (j *joiner) buildCrossings() {
	n, w := j.n, (len(j.kept)+63)/64
	j.words = w
	if cap(j.crossL) < 2*n*w {
		j.crossL = make([]uint64, 2*n*w)
	}
	j.crossL = j.crossL[:2*n*w]
	j.crossR = j.crossL[n*w:]
	// 64 tops at a time: one row of bits per top (down-right crossings in
	// the low half, down-left in the high half), transposed into one row
	// of bits per square.
	var block [64]uint64
	for word := 0; word < w; word++ {
		block = [64]uint64{}
		for i, t := range j.kept[word*64 : min(len(j.kept), word*64+64)] {
			block[i] = uint64(j.topL[t]) | uint64(j.topR[t])<<32
		}
		transpose64(&block)
		for c := 0; c < n; c++ {
			j.crossL[c*w+word] = block[c]
			j.crossR[c*w+word] = block[32+c]
		}
	}
}

// bottoms searches the bottom half over the columns cols, from the
// boundary outward, and adds the weighted joins. The first row's queen is
// placed apart: the tops it leaves become the (smaller) set of bits the
// rows below work on.
func (j *joiner) bottoms(cols uint32) {
	n, h, all := j.n, j.h, j.all
	offset := 0 // distance from the boundary row of the bottom's first row
	if j.middle >= 0 {
		offset = 1
	}
	if cap(j.kept) < len(j.topL) {
		j.kept = make([]int32, len(j.topL))
	}
	var joins int64
	first := cols &^ j.blockBottom[0]
	for first != 0 {
		bit := first & -first
		first ^= bit
		j.nodes++
		c := bits.TrailingZeros32(bit)
		j.bottom[0] = byte(c)
		l, down, r := (bit<<1)&all, bit, bit>>1
		if k := uint(h - 2); cols&^(l<<k|down|r>>k|j.blockBottom[h-1]) == 0 {
			continue // the outermost row has no free square left
		}
		// Keep the tops whose diagonals do not cross the boundary where
		// this queen's do (c-k down-right, c+k down-left).
		var meetL, meetR uint32
		if c-offset >= 0 {
			meetL = 1 << (c - offset)
		}
		if c+offset < n {
			meetR = 1 << (c + offset)
		}
		kept := j.kept[:len(j.topL)]
		m := 0
		for t, tl := range j.topL {
			kept[m] = int32(t)
			x := tl&meetL | j.topR[t]&meetR
			m += int((x|-x)>>31) ^ 1 // x == 0, without a branch to mispredict
		}
		if m == 0 {
			continue
		}
		j.kept = kept[:m]
		j.buildCrossings()
		joins += j.descend(cols, offset, l, down, r)
	}
	j.solutions += j.weight * joins
}

// descend searches the bottom rows below the first, the kept tops as the
// bitsets' universe, and returns the joins.
func (j *joiner) descend(cols uint32, offset int, l0, down0, r0 uint32) int64 {
	n, h, w, all := j.n, j.h, j.words, j.all
	if cap(j.left) < (h+1)*w {
		j.left = make([]uint64, (h+1)*w)
	}
	left := j.left[:(h+1)*w]
	for i := w; i < 2*w; i++ {
		left[i] = ^uint64(0)
	}
	if r := len(j.kept) % 64; r != 0 {
		left[2*w-1] = 1<<r - 1
	}
	var joins int64
	var search func(y int, l, down, r uint32)
	search = func(y int, l, down, r uint32) {
		free := cols &^ (l | down | r | j.blockBottom[y])
		cur, next := left[y*w:(y+1)*w], left[(y+1)*w:(y+2)*w]
		k := y + offset
		for free != 0 {
			bit := free & -free
			free ^= bit
			j.nodes++
			c := bits.TrailingZeros32(bit)
			j.bottom[y] = byte(c)
			// The tops whose down-right diagonal crosses the boundary at
			// c-k, or whose down-left one crosses it at c+k, meet this queen.
			var alive uint64
			switch dr, dl := c-k, c+k; {
			case dr >= 0 && dl < n:
				a, b := j.crossL[dr*w:(dr+1)*w], j.crossR[dl*w:(dl+1)*w]
				if y == h-1 && j.emit == nil {
					for i, v := range cur {
						joins += int64(bits.OnesCount64(v &^ (a[i] | b[i])))
					}
					continue
				}
				for i, v := range cur {
					v &^= a[i] | b[i]
					next[i] = v
					alive |= v
				}
			case dr >= 0:
				a := j.crossL[dr*w : (dr+1)*w]
				for i, v := range cur {
					v &^= a[i]
					next[i] = v
					alive |= v
				}
			case dl < n:
				b := j.crossR[dl*w : (dl+1)*w]
				for i, v := range cur {
					v &^= b[i]
					next[i] = v
					alive |= v
				}
			default:
				copy(next, cur)
				alive = 1
			}
			if alive == 0 {
				continue
			}
			if y == h-1 {
				for _, v := range next {
					joins += int64(bits.OnesCount64(v))
				}
				if j.emit != nil {
					j.emitJoins(next)
				}
				continue
			}
			nl, nd, nr := (l|bit)<<1&all, down|bit, (r|bit)>>1
			if k := uint(h - 2 - y); cols&^(nl<<k|nd|nr>>k|j.blockBottom[h-1]) == 0 {
				continue // the outermost row has no free square left
			}
			search(y+1, nl, nd, nr)
		}
	}
	search(1, l0, down0, r0)
	return joins
}

// emitJoins hands over the solutions joining the current bottom with the
// tops left in set, with their images under the symmetries the weight
// stands for.
func (j *joiner) emitJoins(set []uint64) {
	n, h := j.n, j.h
	first := n - h // the bottom's first row
	if j.middle >= 0 {
		j.sol[h] = byte(j.middle)
	}
	for y := 0; y < h; y++ {
		j.sol[first+y] = j.bottom[y]
	}
	img := make([]byte, n)
	for wi, v := range set {
		for ; v != 0; v &= v - 1 {
			t := int(j.kept[wi*64+bits.TrailingZeros64(v)])
			copy(j.sol, j.topCols[t*h:(t+1)*h])
			for _, s := range j.syms {
				for r := 0; r < n; r++ {
					row, col := r, j.sol[r]
					if s == symFlip || s == symHalfTurn {
						row = n - 1 - r
					}
					if s == symMirror || s == symHalfTurn {
						col = byte(n-1) - col
					}
					img[row] = col
				}
				if j.err == nil {
					j.err = j.emit(img)
				}
			}
		}
	}
}

// QueensFixed counts the solutions of queens:n that a quarter turn maps
// onto themselves (f90) and those a half turn does (f180, f90 included),
// by searches that place whole orbits of squares at once.
func QueensFixed(n int) (f90, f180, nodes int64) {
	quarter := fixedSearch{n: n, quarter: true}
	quarter.search(0, fixedBoard{})
	half := fixedSearch{n: n}
	half.search(0, fixedBoard{})
	return quarter.count, half.count, quarter.nodes + half.nodes
}

type fixedSearch struct {
	n            int
	quarter      bool // orbits under the quarter turn, else the half turn
	count, nodes int64
}

// fixedBoard is what the queens placed so far occupy.
type fixedBoard struct {
	rows, cols     uint32
	diag, antiDiag uint64 // r-c+n-1 and r+c
}

// search fills the first empty row at or after r with each column in turn,
// placing the square's whole orbit.
func (f *fixedSearch) search(r int, b fixedBoard) {
	for r < f.n && b.rows&(1<<r) != 0 {
		r++
	}
	if r == f.n {
		f.count++
		return
	}
	for c := 0; c < f.n; c++ {
		if next, ok := f.placeOrbit(b, r, c); ok {
			f.nodes++
			f.search(r+1, next)
		}
	}
}

// placeOrbit places (r, c) and its images under the turn, if none of them
// attacks another or a queen already placed.
func (f *fixedSearch) placeOrbit(b fixedBoard, r, c int) (fixedBoard, bool) {
	n := f.n
	size := 2
	if f.quarter {
		size = 4
	}
	if 2*r == n-1 && 2*c == n-1 {
		size = 1 // the centre is its own orbit
	}
	for range size {
		if b.rows&(1<<r) != 0 || b.cols&(1<<c) != 0 || b.diag&(1<<(r-c+n-1)) != 0 || b.antiDiag&(1<<(r+c)) != 0 {
			return b, false
		}
		b.rows |= 1 << r
		b.cols |= 1 << c
		b.diag |= 1 << (r - c + n - 1)
		b.antiDiag |= 1 << (r + c)
		if f.quarter {
			r, c = c, n-1-r
		} else {
			r, c = n-1-r, n-1-c
		}
	}
	return b, true
}

// ClassifyJoined sorts the solutions counted by the join counter (Joined)
// into classes by orbit size, with the counts of QueensFixed already in
// Orbits[2] and Orbits[4] (see FixedClassCounts).
func (c *ClassCounts) ClassifyJoined() error {
	rest := c.Joined - 2*c.Orbits[2] - 4*c.Orbits[4]
	if c.Orbits[8] != 0 || rest < 0 || rest%8 != 0 {
		return fmt.Errorf("%d solutions do not split into classes of 2, 4 and 8 with %d and %d classes of 2 and 4 (this is a bug, please report it)",
			c.Joined, c.Orbits[2], c.Orbits[4])
	}
	c.Orbits[8], c.Joined = rest/8, 0
	return nil
}

// FixedClassCounts counts the classes of queens:n (n >= 2) with 2 and 4
// members from the solutions that quarter and half turns fix.
func FixedClassCounts(n int) ClassCounts {
	f90, f180, nodes := QueensFixed(n)
	return ClassCounts{Orbits: [9]int64{2: f90 / 2, 4: (f180 - f90) / 4}, Nodes: nodes}
}

// A QueensCounter is the count-only work of queens:n (n >= 4) for the join
// counter, cut into units: the join units, then one unit counting the
// solutions that turns fix (the classes of 2 and 4 members).
type QueensCounter struct {
	n       int
	units   []JoinUnit
	joiners *sync.Pool // their buffers, reused from unit to unit
}

// NewQueensCounter lists the units of queens:n.
func NewQueensCounter(n int) QueensCounter {
	return QueensCounter{n, QueensJoinUnits(n), &sync.Pool{New: func() any { return newJoiner(n, nil) }}}
}

// Keys identifies each unit, for saved counts.
func (q QueensCounter) Keys() [][]byte {
	keys := make([][]byte, 0, len(q.units)+1)
	for _, u := range q.units {
		keys = append(keys, u.Key())
	}
	return append(keys, []byte{'F', byte(q.n)})
}

// Count counts the listed units (indexes into Keys) on up to workers
// goroutines and hands each unit's counts to done, in the order listed,
// from one goroutine. Add up every unit's counts and call ClassifyJoined.
func (q QueensCounter) Count(ctx context.Context, todo []int, workers int, done func(i int, c ClassCounts) error) error {
	return runOrdered(ctx, len(todo), workers, func(k int) ClassCounts {
		if i := todo[k]; i < len(q.units) {
			j := q.joiners.Get().(*joiner)
			defer q.joiners.Put(j)
			solutions, nodes := j.countUnit(q.units[i])
			return ClassCounts{Joined: solutions, Nodes: nodes}
		}
		return FixedClassCounts(q.n)
	}, func(k int, c ClassCounts) error {
		return done(todo[k], c)
	})
}

// CountQueensJoin counts the solutions and classes of queens:n (n >= 4)
// with the join counter on up to workers goroutines (0: one per core).
func CountQueensJoin(ctx context.Context, n, workers int) (ClassCounts, error) {
	q := NewQueensCounter(n)
	todo := make([]int, len(q.units)+1)
	for i := range todo {
		todo[i] = i
	}
	var total ClassCounts
	err := q.Count(ctx, todo, workers, func(_ int, c ClassCounts) error {
		total.Add(c)
		return nil
	})
	if err != nil {
		return total, err
	}
	return total, total.ClassifyJoined()
}

// queensJoin is the join counter as a bench method. With an emit it hands
// over every solution (one goroutine; for tests and small sizes).
func queensJoin(ctx context.Context, n, workers int, emit Emit) (Stats, error) {
	if n < 4 {
		return queensSymmetric(ctx, n, workers, emit)
	}
	if emit == nil {
		c, err := CountQueensJoin(ctx, n, workers)
		return Stats{Solutions: c.Solutions(), Nodes: c.Nodes}, err
	}
	j := newJoiner(n, emit)
	var st Stats
	for _, u := range QueensJoinUnits(n) {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		solutions, nodes := j.countUnit(u)
		st.Solutions, st.Nodes = st.Solutions+solutions, st.Nodes+nodes
		if j.err != nil {
			return st, j.err
		}
	}
	return st, nil
}

// transpose64 transposes a 64x64 bit matrix in place: bit p of a[i] becomes
// bit i of a[p]. Six rounds swap ever smaller blocks, without branches.
func transpose64(a *[64]uint64) {
	mask := uint64(0x00000000FFFFFFFF)
	for width := 32; width != 0; width >>= 1 {
		for k := 0; k < 64; k = (k + width + 1) &^ width {
			t := (a[k]>>width ^ a[k+width]) & mask
			a[k] ^= t << width
			a[k+width] ^= t
		}
		mask ^= mask << (width >> 1)
	}
}
