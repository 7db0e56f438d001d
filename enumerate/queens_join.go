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
//   - The tops of D are not searched row by row: a top is an upper block
//     of h/2 rows on a lower block of the rest, and the placements of
//     each block on each column set are listed once for the whole count
//     (rowBlocks). For each way to cut D in two, the pairs of placements
//     that do not attack each other are the tops: one mask test a pair.
//     What a top means to the rows below is where its two diagonals cross
//     the boundary row (row h): two masks of n bits.
//   - Each top becomes a bit position in bitsets, one per boundary square
//     and direction: the tops whose diagonal crosses it. The bottom half is
//     then searched from the boundary outward, carrying the set of tops it
//     has not attacked yet: a queen at distance k from the boundary, column
//     c, removes the tops whose diagonals cross the boundary at c+k and c-k
//     (the only diagonals it shares with the top half). A bottom that leaves
//     no top is abandoned at once. Its far rows (the 4 to 6 farthest from
//     the boundary on the larger boards: farRows) are not searched
//     either: they are a block too, joined with each placement of the rows
//     above them by a mask test, and a complete bottom adds the tops left
//     (see bottoms).
//     What a far placement attacks among the tops is worked out from its
//     two parts (its first rows and the rest), each shared by many far
//     placements and worked out once for each first queen of the bottom.
//   - With at most 256 tops left after the bottom's first queen (odd n up
//     to 17 or so), the bitsets are quads: four words passed in registers,
//     the search below that queen touching no bitset in memory (see
//     descendQuad). Most of queens:17's work is done so.
//
// Nodes, for this counter, are the squares the bottom search places queens
// on and the pairs of blocks it tests (tops, and far rows below the rows
// above them).
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
	n      int
	Keys   []JoinKey
	halves bool // a unit of the halves counter (see queens_halves.go)
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
// or more to keep to about 1,000 units, or to one unit per 250 joins on the
// largest boards; the last unit takes the rest).
func QueensJoinUnits(n int) []JoinUnit {
	h := n / 2
	all := uint32(1)<<n - 1
	j := newJoiner(n, nil, nil)
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
	return joinUnits(n, keys, false)
}

// joinUnits cuts the joins into units.
func joinUnits(n int, keys []JoinKey, halves bool) []JoinUnit {
	// About 1000 units: a unit's commit costs as much as counting a small
	// one. More for the largest boards (one per 250 joins, about 3900 for
	// queens:21), so that a unit takes a few seconds and an interrupted
	// count stops and resumes without losing much.
	size := max(16, len(keys)/max(1000, len(keys)/250))
	var units []JoinUnit
	for len(keys) > 0 {
		k := min(size, len(keys))
		units = append(units, JoinUnit{n, keys[:k:k], halves})
		keys = keys[k:]
	}
	return units
}

// Key identifies the unit in a saved count: a changed layout of units is
// noticed instead of mixed in.
func (u JoinUnit) Key() []byte {
	method := byte('J')
	if u.halves {
		// 'H' was the halves counter's when it counted one column set at a
		// time (even n only): its saved units are not these.
		method = 'P'
	}
	key := []byte{method, byte(u.n), byte(u.Keys[0].M)}
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
	blocks     *halfBlocks // the blocks of rows both halves are made of
	cachedD    uint32
	words      int      // 64-bit words per bitset: one bit per top
	crossL     []uint64 // n bitsets: the tops whose down-right diagonal crosses square c
	crossR     []uint64 // n bitsets: ... whose down-left diagonal crosses square c
	left       []uint64 // the tops not attacked yet, one bitset per bottom row

	weight    int64
	solutions int64
	nodes     int64

	emit   func(sol []byte) error // nil when counting
	syms   []int                  // the symmetries giving the current join's images
	bottom [32]byte               // with emit: the bottom's columns by distance from the boundary

	// The far rows (see bottoms).
	farRank  [32]byte   // a column's bit in far sets
	farAll   int        // the far set of all columns
	farRange [][2]int32 // by far set: its placements in the far block
	farA     partBits   // the bitsets of the far placements' first parts
	farB     partBits   // ... and of their other parts
	fit      []uint64   // the far placements that fit (see fits)
	sol      []byte
	err      error

	// With at most 256 kept tops (see descendQuad).
	quadL, quadR []quad // crossL and crossR, a quad per square
	quadCols     uint32 // the bottom's columns
	quadSplit    int    // the first far row
	quadOffset   int    // the bottom's first row's distance from the boundary
}

func newJoiner(n int, emit func([]byte) error, blocks *halfBlocks) *joiner {
	return &joiner{n: n, h: n / 2, all: uint32(1)<<n - 1, middle: -1, emit: emit, sol: make([]byte, n), blocks: blocks}
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
	j.middle = m
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
	mbit := j.middleBit()
	if j.emit != nil {
		j.topL, j.topR, j.topCols = j.topL[:0], j.topR[:0], j.topCols[:0]
		for i, l := range j.allL {
			if (l|j.allR[i])&mbit == 0 {
				j.topL, j.topR = append(j.topL, l), append(j.topR, j.allR[i])
				j.topCols = append(j.topCols, j.allCols[i*j.h:(i+1)*j.h]...)
			}
		}
		return
	}
	// Keep the tops the middle queen does not attack, without a branch to
	// mispredict: write each, advance past those kept.
	tl := slices.Grow(j.topL[:0], len(j.allL))[:len(j.allL)]
	tr := slices.Grow(j.topR[:0], len(j.allL))[:len(j.allL)]
	allR := j.allR[:len(j.allL)]
	m := 0
	for i, l := range j.allL {
		r := allR[i]
		tl[m], tr[m] = l, r
		x := (l | r) & mbit
		m += int((x|-x)>>31) ^ 1
	}
	j.topL, j.topR = tl[:m], tr[:m]
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

// allTops lists the placements of rows 0..h-1 using exactly the columns d:
// for each way to cut d into the columns of the upper block and those of
// the lower one, the pairs of their placements that do not attack each
// other.
func (j *joiner) allTops(d uint32) {
	j.cached, j.cachedD = true, d
	all := j.all
	up, low := j.blocks.upper, j.blocks.lower
	shift := low.k // rows from below the upper block to below the lower one
	tl, tr, cols := j.allL[:0], j.allR[:0], j.allCols[:0]
	nodes := int64(0)
	// Every subset of d with up.k columns, as a submask of d.
	for q := d; ; q = (q - 1) & d {
		if bits.OnesCount32(q) == up.k {
			uFrom, uTo := up.on(q)
			lFrom, lTo := low.on(d ^ q)
			lowAbove, lowBelow := low.above[lFrom:lTo], low.below[lFrom:lTo]
			for u := uFrom; u < uTo; u++ {
				ub := up.below[u]
				nodes += int64(len(lowAbove))
				if j.emit != nil {
					for i, la := range lowAbove {
						if ub&la == 0 {
							cols = append(cols, up.cols[u*up.k:(u+1)*up.k]...)
							cols = append(cols, low.cols[(lFrom+i)*low.k:(lFrom+i+1)*low.k]...)
						}
					}
				}
				// Append every pair, keep those that join: no branch to
				// mispredict.
				m := len(tl)
				tl, tr = slices.Grow(tl, len(lowAbove)), slices.Grow(tr, len(lowAbove))
				tl, tr = tl[:m+len(lowAbove)], tr[:m+len(lowAbove)]
				ul, ur := uint32(ub)<<shift&all, uint32(ub>>32)>>shift
				for i, la := range lowAbove {
					lb := lowBelow[i]
					tl[m], tr[m] = ul|uint32(lb), ur|uint32(lb>>32)
					x := ub & la
					m += int((x|-x)>>63) ^ 1
				}
				tl, tr = tl[:m], tr[:m]
			}
		}
		if q == 0 {
			break
		}
	}
	j.allL, j.allR, j.allCols = tl, tr, cols
	j.nodes += nodes
}

// buildCrossings fills the bitsets of boundary crossings of the kept tops
// (bit i stands for top kept[i]). A bottom queen's diagonals may cross the
// boundary row off the board: those squares get empty bitsets, so that
// meets needs no range checks.
func (j *joiner) buildCrossings() {
	n, w, pad := j.n, (len(j.kept)+63)/64, j.pad()
	j.words = w
	size := 2 * (n + pad) * w
	if cap(j.crossL) < size {
		j.crossL = make([]uint64, size)
	}
	j.crossL = j.crossL[:size]
	j.crossR = j.crossL[(n+pad)*w:]
	clear(j.crossL[:pad*w]) // down-right crossings left of the board
	clear(j.crossR[n*w:])   // down-left crossings right of it
	onL := j.crossL[pad*w:] // squares 0..n-1
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
			onL[c*w+word] = block[c]
			j.crossR[c*w+word] = block[32+c]
		}
	}
}

// pad is the number of empty bitsets beside the board in crossL and
// crossR: a bottom queen is at most h-1+offset <= h rows from the boundary.
func (j *joiner) pad() int { return j.h }

// meets gives the bitsets of the tops that a bottom queen in column c at
// distance k from the boundary row attacks: those whose down-right
// diagonal crosses it at c-k, and those whose down-left one crosses at c+k.
func (j *joiner) meets(c, k int) (downRight, downLeft []uint64) {
	w, pad := j.words, j.pad()
	i, o := (c-k+pad)*w, (c+k)*w
	return j.crossL[i : i+w], j.crossR[o : o+w]
}

// bottoms counts the joins of the tops with the bottom halves on the
// columns cols, adding them weighted.
//
// The bottom's rows are cut in three: its first row (the boundary row, or
// the row below the middle queen), the near rows (1..split-1) and the far
// rows (split..h-1). The first row's queen is placed apart: the tops it
// leaves become the (smaller) set of bits the rows below work on. The near
// rows are searched from the boundary outward, filtering the tops row by
// row. The far rows are not searched under each near placement: their
// placements come from the precomputed block of that many rows on the
// columns the near rows leave; each is checked against the queens above
// by a mask test, and its tops' bitset (the tops it attacks) is built the
// first time it is used under a first-row queen.
func (j *joiner) bottoms(cols uint32) {
	n, h, all := j.n, j.h, j.all
	offset := 0 // distance from the boundary row of the bottom's first row
	if j.middle >= 0 {
		offset = 1
	}
	if cap(j.kept) < len(j.topL) {
		j.kept = make([]int32, len(j.topL))
	}
	j.farIndex(cols)
	// The middle queen's diagonals on the bottom's first row (its column
	// is not in cols).
	ml, mr := j.middleBit()<<1&all, j.middleBit()>>1
	var joins int64
	first := cols &^ (ml | mr)
	for first != 0 {
		bit := first & -first
		first ^= bit
		j.nodes++
		c := bits.TrailingZeros32(bit)
		j.bottom[0] = byte(c)
		l, down, r := (ml|bit)<<1&all, bit, (mr|bit)>>1
		if k := uint(h - 2); cols&^(l<<k|down|r>>k) == 0 {
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
		if j.emit == nil && j.words <= 4 {
			joins += j.descendQuad(cols, offset, l, down, r, 1<<j.farRank[c])
			continue
		}
		joins += j.descend(cols, offset, l, down, r, 1<<j.farRank[c])
	}
	j.solutions += j.weight * joins
}

// farIndex numbers the columns of cols (bit i of a far set stands for the
// i-th column of cols) and finds each set's placements in the far block.
func (j *joiner) farIndex(cols uint32) {
	far := j.blocks.far
	var col [32]int
	i := 0
	for c := cols; c != 0; c &= c - 1 {
		col[i] = bits.TrailingZeros32(c)
		j.farRank[col[i]] = byte(i)
		i++
	}
	sets := 1 << i
	if cap(j.farRange) < sets {
		j.farRange = make([][2]int32, sets)
	}
	j.farRange = j.farRange[:sets]
	j.farAll = sets - 1
	for set := range j.farRange {
		j.farRange[set] = [2]int32{}
		if bits.OnesCount(uint(set)) != far.k {
			continue
		}
		var mask uint32
		for s := set; s != 0; s &= s - 1 {
			mask |= 1 << col[bits.TrailingZeros(uint(s))]
		}
		from, to := far.on(mask)
		j.farRange[set] = [2]int32{int32(from), int32(to)}
	}
}

// descend counts the joins of the bottoms whose first queen is placed
// (masks l0, down0, r0 on the second row; used0, its column as a far set),
// the kept tops as the bitsets' universe.
func (j *joiner) descend(cols uint32, offset int, l0, down0, r0 uint32, used0 int) int64 {
	h, w, all := j.h, j.words, j.all
	split := h - j.blocks.far.k
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
	j.newFarGeneration()
	var joins int64
	var search func(y int, l, down, r uint32, used int)
	search = func(y int, l, down, r uint32, used int) {
		cur := left[y*w : (y+1)*w]
		if y == split {
			joins += j.joinFar(cur, left[(y+1)*w:(y+2)*w], l, r, used, split, offset)
			return
		}
		next := left[(y+1)*w : (y+2)*w]
		free := cols &^ (l | down | r)
		k := y + offset
		for free != 0 {
			bit := free & -free
			free ^= bit
			j.nodes++
			c := bits.TrailingZeros32(bit)
			j.bottom[y] = byte(c)
			// The outermost row must keep a free square. Checked before the
			// tops are filtered: many nodes fail it.
			nl, nd, nr := (l|bit)<<1&all, down|bit, (r|bit)>>1
			s := uint(h - 2 - y)
			if cols&^(nl<<s|nd|nr>>s) == 0 {
				continue
			}
			a, b := j.meets(c, k)
			var alive uint64
			for i, v := range cur {
				v &^= a[i] | b[i]
				next[i] = v
				alive |= v
			}
			if alive != 0 {
				search(y+1, nl, nd, nr, used|1<<j.farRank[c])
			}
		}
	}
	search(1, l0, down0, r0, used0)
	return joins
}

// joinFar counts the joins of a placement of the near rows (the tops left
// in cur, masks l and r on row split, its columns as a far set used) with
// the far placements on the columns left.
func (j *joiner) joinFar(cur, scratch []uint64, l, r uint32, used, split, offset int) int64 {
	far, b := j.blocks.far, j.blocks
	rng := j.farRange[j.farAll^used]
	j.nodes += int64(rng[1] - rng[0])
	k := split + offset
	var joins int64
	for _, fit := range j.fits(rng, uint64(l)|uint64(r)<<32) {
		// The tops the far placement's two parts attack.
		p, parts := int(fit>>32), uint32(fit)
		xa := j.farA.get(j, int(parts&0xffff), b.farSplit, k)[:len(cur)]
		xb := j.farB.get(j, int(parts>>16), far.k-b.farSplit, k+b.farSplit)[:len(cur)]
		if j.emit == nil {
			for i, v := range cur {
				joins += int64(bits.OnesCount64(v &^ (xa[i] | xb[i])))
			}
			continue
		}
		copy(j.bottom[split:j.h], far.cols[p*far.k:])
		for i, v := range cur {
			scratch[i] = v &^ (xa[i] | xb[i])
			joins += int64(bits.OnesCount64(scratch[i]))
		}
		j.emitJoins(scratch)
	}
	return joins
}

// fits lists the far placements in rng that the near rows leave room for
// (above: their masks on the first far row, as rowBlocks.above), without
// a branch to mispredict: each as its number<<32 | its parts (farParts),
// read here in order rather than later one by one.
func (j *joiner) fits(rng [2]int32, above uint64) []uint64 {
	aboves := j.blocks.far.above[rng[0]:rng[1]]
	parts := j.blocks.farParts[rng[0]:rng[1]]
	parts = parts[:len(aboves)]
	j.fit = slices.Grow(j.fit[:0], len(aboves)+1)[:len(aboves)+1]
	fit, m := j.fit, 0
	for i, a := range aboves {
		fit[m] = uint64(int(rng[0])+i)<<32 | uint64(parts[i])
		x := a & above
		m += int((x|-x)>>63) ^ 1
	}
	return fit[:m]
}

// newFarGeneration forgets the far parts' bitsets: the kept tops changed.
func (j *joiner) newFarGeneration() {
	j.farA.reset(j.n, j.blocks.farSplit)
	j.farB.reset(j.n, j.blocks.far.k-j.blocks.farSplit)
}

// The bitsets of the kept tops that a far placement attacks come from its
// two parts (its first rows and the rest): a part is shared by many far
// placements, so its bitset is worked out once a generation.

// partBits holds the bitsets of the kept tops that far parts of some
// number of rows attack, for the current generation, by the part's number
// (see partCode).
type partBits struct {
	slot []uint64 // by part: the generation its bitset is from<<32 | where it is in x (one load)
	x    []uint64
	gen  uint32
	// The bitsets of the parts' rows after the first, for parts of three
	// rows or more: a part's bitset is its first queen's and the rest's.
	rest *partBits
}

// reset forgets the bitsets: a new generation of kept tops.
func (pb *partBits) reset(n, rows int) {
	if pb.slot == nil {
		parts := 1
		for range rows {
			parts *= n
		}
		pb.slot = make([]uint64, parts)
	}
	pb.gen++
	if pb.gen == 0 { // wrapped around: no stamp may look current
		clear(pb.slot)
		pb.gen = 1
	}
	pb.x = pb.x[:0]
	if rows > 2 {
		if pb.rest == nil {
			pb.rest = new(partBits)
		}
		pb.rest.reset(n, rows-1)
	}
}

// get gives the bitset of the kept tops that a part of rows rows attacks,
// its first row at distance k from the boundary.
func (pb *partBits) get(j *joiner, part, rows, k int) []uint64 {
	w := j.words
	if slot := pb.slot[part]; uint32(slot>>32) == pb.gen {
		s := int(uint32(slot))
		return pb.x[s : s+w]
	}
	s := len(pb.x)
	pb.slot[part] = uint64(pb.gen)<<32 | uint64(s)
	pb.x = slices.Grow(pb.x, w)[:s+w]
	x := pb.x[s : s+w]
	if pb.rest != nil {
		a, b := j.meets(part%j.n, k)
		r := pb.rest.get(j, part/j.n, rows-1, k+1)[:w]
		for i := range x {
			x[i] = a[i] | b[i] | r[i]
		}
		return x
	}
	clear(x)
	for row := range rows {
		a, b := j.meets(part%j.n, k+row)
		for i := range x {
			x[i] |= a[i] | b[i]
		}
		part /= j.n
	}
	return x
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
	diag, antiDiag uint64 // n-1-r+c and r+c
}

// search fills the first empty row at or after r with each column in turn
// that no queen placed attacks, placing the square's whole orbit.
func (f *fixedSearch) search(r int, b fixedBoard) {
	for r < f.n && b.rows&(1<<r) != 0 {
		r++
	}
	if r == f.n {
		f.count++
		return
	}
	// The diagonals through row r's squares are bits n-1-r.. and r.. of
	// the masks: the columns they leave, at once.
	all := uint32(1)<<f.n - 1
	free := all &^ (b.cols | uint32(b.diag>>(f.n-1-r)) | uint32(b.antiDiag>>r))
	for ; free != 0; free &= free - 1 {
		if next, ok := f.placeOrbit(b, r, bits.TrailingZeros32(free)); ok {
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
		if b.rows&(1<<r) != 0 || b.cols&(1<<c) != 0 || b.diag&(1<<(n-1-r+c)) != 0 || b.antiDiag&(1<<(r+c)) != 0 {
			return b, false
		}
		b.rows |= 1 << r
		b.cols |= 1 << c
		b.diag |= 1 << (n - 1 - r + c)
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
// counter or the halves counter, cut into units: the join units, then one
// unit counting the solutions that turns fix (the classes of 2 and 4
// members).
type QueensCounter struct {
	n       int
	units   []JoinUnit
	workers *sync.Pool // their buffers, reused from unit to unit
}

// NewQueensCounter lists the units of queens:n for the faster counter
// this machine has for it: the halves counter where it applies (see
// HalvesCounterApplies), else the join counter.
func NewQueensCounter(n int) QueensCounter {
	return NewQueensCounterUsing(n, HalvesCounterApplies(n))
}

// NewQueensCounterUsing lists the units of queens:n for the halves counter
// (n from 4 to 23) or the join counter: a merge of shards takes the
// counter they were counted with, whatever this machine would use.
func NewQueensCounterUsing(n int, halves bool) QueensCounter {
	return newQueensCounter(n, halves && halvesCounts(n))
}

// newQueensCounter lists the units; the blocks of rows are built when the
// first unit is counted (a counter is also made only for its units' keys).
func newQueensCounter(n int, halves bool) QueensCounter {
	if halves {
		blocks := sync.OnceValue(func() *halvesBlocks { return newHalvesBlocks(n) })
		return QueensCounter{n, queensHalvesUnits(n), &sync.Pool{New: func() any { return newHalvesMatcher(n, blocks()) }}}
	}
	blocks := sync.OnceValue(func() *halfBlocks { return newHalfBlocks(n) })
	return QueensCounter{n, QueensJoinUnits(n), &sync.Pool{New: func() any { return newJoiner(n, nil, blocks()) }}}
}

// Method names the counter, for the layout of saved counts.
func (q QueensCounter) Method() string {
	if len(q.units) > 0 && q.units[0].halves {
		return "halves counter"
	}
	return "join counter"
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
// goroutines and hands each unit's counts to done, from one goroutine: the
// unit of the solutions turns fix first (one worker counts it while the
// others start on the rest, rather than alone at the end), then the
// others in the order listed. Add up every unit's counts and call
// ClassifyJoined.
func (q QueensCounter) Count(ctx context.Context, todo []int, workers int, done func(i int, c ClassCounts) error) error {
	if k := slices.Index(todo, len(q.units)); k > 0 {
		todo = slices.Concat([]int{len(q.units)}, todo[:k], todo[k+1:])
	}
	return runOrdered(ctx, len(todo), workers, func(k int) ClassCounts {
		if i := todo[k]; i < len(q.units) {
			w := q.workers.Get()
			defer q.workers.Put(w)
			var solutions, nodes int64
			if m, ok := w.(*halvesMatcher); ok {
				solutions, nodes = m.countUnit(q.units[i])
			} else {
				solutions, nodes = w.(*joiner).countUnit(q.units[i])
			}
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
	return countQueens(ctx, newQueensCounter(n, false), workers)
}

// CountQueensCountOnly counts the solutions and classes of queens:n
// (n >= 4) as count-only builds do (see NewQueensCounter).
func CountQueensCountOnly(ctx context.Context, n, workers int) (ClassCounts, error) {
	return countQueens(ctx, NewQueensCounter(n), workers)
}

func countQueens(ctx context.Context, q QueensCounter, workers int) (ClassCounts, error) {
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
	j := newJoiner(n, emit, newHalfBlocks(n))
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
// bit i of a[p]. Six rounds swap ever smaller blocks, without branches;
// written out so that every shift is a constant.
func transpose64(a *[64]uint64) {
	for k := range 32 {
		t := (a[k]>>32 ^ a[k+32]) & 0x00000000FFFFFFFF
		a[k] ^= t << 32
		a[k+32] ^= t
	}
	for base := 0; base < 64; base += 32 {
		b := (*[32]uint64)(a[base : base+32])
		for k := range 16 {
			t := (b[k]>>16 ^ b[k+16]) & 0x0000FFFF0000FFFF
			b[k] ^= t << 16
			b[k+16] ^= t
		}
	}
	for base := 0; base < 64; base += 16 {
		b := (*[16]uint64)(a[base : base+16])
		for k := range 8 {
			t := (b[k]>>8 ^ b[k+8]) & 0x00FF00FF00FF00FF
			b[k] ^= t << 8
			b[k+8] ^= t
		}
	}
	for base := 0; base < 64; base += 8 {
		b := (*[8]uint64)(a[base : base+8])
		for k := range 4 {
			t := (b[k]>>4 ^ b[k+4]) & 0x0F0F0F0F0F0F0F0F
			b[k] ^= t << 4
			b[k+4] ^= t
		}
	}
	for base := 0; base < 64; base += 4 {
		b := (*[4]uint64)(a[base : base+4])
		for k := range 2 {
			t := (b[k]>>2 ^ b[k+2]) & 0x3333333333333333
			b[k] ^= t << 2
			b[k+2] ^= t
		}
	}
	for k := 0; k < 64; k += 2 {
		b := (*[2]uint64)(a[k : k+2])
		t := (b[0]>>1 ^ b[1]) & 0x5555555555555555
		b[0] ^= t << 1
		b[1] ^= t
	}
}

// A quad is a bitset of at most 256 tops held in four words: small enough
// to be passed in registers, so that the search below keeps no bitsets in
// memory.
type quad struct{ a, b, c, d uint64 }

func (q quad) andNot(x quad) quad { return quad{q.a &^ x.a, q.b &^ x.b, q.c &^ x.c, q.d &^ x.d} }
func (q quad) or(x quad) quad     { return quad{q.a | x.a, q.b | x.b, q.c | x.c, q.d | x.d} }
func (q quad) empty() bool        { return q.a|q.b|q.c|q.d == 0 }
func (q quad) count() int64 {
	return int64(bits.OnesCount64(q.a) + bits.OnesCount64(q.b) + bits.OnesCount64(q.c) + bits.OnesCount64(q.d))
}

// toQuads copies w-word bitsets (w <= 4) into quads.
func toQuads(dst []quad, src []uint64, w int) []quad {
	dst = dst[:0]
	for i := 0; i+w <= len(src); i += w {
		var q [4]uint64
		copy(q[:], src[i:i+w])
		dst = append(dst, quad{q[0], q[1], q[2], q[3]})
	}
	return dst
}

// descendQuad is descend for at most 256 kept tops, with the bitsets held
// in quads.
func (j *joiner) descendQuad(cols uint32, offset int, l0, down0, r0 uint32, used0 int) int64 {
	j.quadL = toQuads(j.quadL, j.crossL[:len(j.crossR)], j.words)
	j.quadR = toQuads(j.quadR, j.crossR, j.words)
	j.quadCols, j.quadOffset, j.quadSplit = cols, offset, j.h-j.blocks.far.k
	var all [4]uint64 // every kept top
	for i := range all {
		if left := len(j.kept) - 64*i; left > 0 {
			all[i] = 1<<min(left, 64) - 1
		}
	}
	return j.searchQuad(1, l0, down0, r0, used0, quad{all[0], all[1], all[2], all[3]})
}

// searchQuad places the bottom's row y, the kept tops not attacked yet in
// cur.
func (j *joiner) searchQuad(y int, l, down, r uint32, used int, cur quad) int64 {
	if y == j.quadSplit {
		return j.joinFarQuad(cur, l, r, used)
	}
	cols, all, h, pad := j.quadCols, j.all, j.h, j.pad()
	k := y + j.quadOffset
	var joins int64
	for free := cols &^ (l | down | r); free != 0; free &= free - 1 {
		j.nodes++
		c := bits.TrailingZeros32(free)
		bit := uint32(1) << c
		nl, nd, nr := (l|bit)<<1&all, down|bit, (r|bit)>>1
		s := uint(h - 2 - y)
		if cols&^(nl<<s|nd|nr>>s) == 0 {
			continue
		}
		next := cur.andNot(j.quadL[c-k+pad].or(j.quadR[c+k]))
		if !next.empty() {
			joins += j.searchQuad(y+1, nl, nd, nr, used|1<<j.farRank[c], next)
		}
	}
	return joins
}

// joinFarQuad is joinFar with quads.
func (j *joiner) joinFarQuad(cur quad, l, r uint32, used int) int64 {
	rng := j.farRange[j.farAll^used]
	above := uint64(l) | uint64(r)<<32
	k := j.quadSplit + j.quadOffset
	j.nodes += int64(rng[1] - rng[0])
	var joins int64
	for _, fit := range j.fits(rng, above) {
		joins += cur.andNot(j.farTopsQuad(int(fit>>32), k)).count()
	}
	return joins
}

// farTopsQuad is farTops with quads, worked out at each use: a few quads
// from the crossings are read faster than a stamp among all far
// placements.
func (j *joiner) farTopsQuad(p, k int) quad {
	far := j.blocks.far
	var x quad
	pad := j.pad()
	for row, c := range far.cols[p*far.k : (p+1)*far.k] {
		x = x.or(j.quadL[int(c)-k-row+pad]).or(j.quadR[int(c)+k+row])
	}
	return x
}
