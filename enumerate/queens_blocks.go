package enumerate

import (
	"cmp"
	"math/bits"
	"slices"
)

// rowBlocks lists the placements of k queens on k consecutive rows of an
// n-column board, no two attacking each other, grouped by the set of
// columns they use. Two blocks stacked one on the other join when no queen
// of the upper one attacks one of the lower one: a test of two masks, so a
// half board's placements on a column set come from pairs of blocks
// instead of a search row by row (see joiner.allTops).
type rowBlocks struct {
	n, k int
	// Per placement: where its queens' diagonals cross the row just below
	// the block (down-right, down-left), where a queen above the block
	// would have to cross the block's first row to attack one of them
	// (down-right, down-left), and its columns (k bytes, top row first).
	below []uint64 // down-right | down-left<<32
	above []uint64 // the same
	cols  []byte
	bySet map[uint32][2]int32 // column set -> placements [from, to)
}

// newRowBlocks lists the k-row placements of queens:n.
func newRowBlocks(n, k int) *rowBlocks {
	all := uint32(1)<<n - 1
	type placement struct {
		set          uint32
		below, above [2]uint32
		cols         [32]byte
	}
	var list []placement
	var p placement
	var place func(y int, l, down, r uint32)
	place = func(y int, l, down, r uint32) {
		if y == k {
			p.set = down
			p.below = [2]uint32{l, r}
			list = append(list, p)
			return
		}
		for free := all &^ (l | down | r); free != 0; free &= free - 1 {
			c := bits.TrailingZeros32(free)
			bit := uint32(1) << c
			p.cols[y] = byte(c)
			saved := p.above
			// A queen on the block's first row attacks (y, c) if it sits
			// y columns to the left (down-right) or to the right (down-left).
			p.above[0] |= bit >> y
			p.above[1] |= bit << y & all
			place(y+1, (l|bit)<<1&all, down|bit, (r|bit)>>1)
			p.above = saved
		}
	}
	place(0, 0, 0, 0)
	slices.SortStableFunc(list, func(a, b placement) int { return cmp.Compare(a.set, b.set) })
	b := &rowBlocks{n: n, k: k, bySet: map[uint32][2]int32{}}
	b.below = make([]uint64, len(list))
	b.above = make([]uint64, len(list))
	b.cols = make([]byte, len(list)*k)
	for i, p := range list {
		b.below[i] = uint64(p.below[0]) | uint64(p.below[1])<<32
		b.above[i] = uint64(p.above[0]) | uint64(p.above[1])<<32
		copy(b.cols[i*k:], p.cols[:k])
		r := b.bySet[p.set]
		if r[1] == 0 {
			r[0] = int32(i)
		}
		r[1] = int32(i + 1)
		b.bySet[p.set] = r
	}
	return b
}

// placements is the number of placements listed.
func (b *rowBlocks) placements() int { return len(b.below) }

// on gives the range of placements using exactly the columns set.
func (b *rowBlocks) on(set uint32) (from, to int) {
	r := b.bySet[set]
	return int(r[0]), int(r[1])
}

// halfBlocks are the blocks the join counter's halves of h rows are made
// of: a top half is an upper block of h/2 rows on a lower block of the
// rest; a bottom half's far rows (the h/2 farthest from the boundary) are
// a block of the upper one's size.
type halfBlocks struct {
	upper, lower, far *rowBlocks
	// Each far placement as two parts, its first farSplit rows and the
	// rest, each numbered by its columns (see partCode): the first part's
	// number in the low 16 bits, the rest's in the high 16.
	farSplit int
	farParts []uint32
}

func newHalfBlocks(n int) *halfBlocks {
	h := n / 2
	upper := newRowBlocks(n, h/2)
	lower := upper
	if h-h/2 != h/2 {
		lower = newRowBlocks(n, h-h/2)
	}
	b := &halfBlocks{upper: upper, lower: lower, far: upper, farSplit: upper.k / 2}
	b.farParts = make([]uint32, upper.placements())
	for p := range b.farParts {
		cols := upper.cols[p*upper.k : (p+1)*upper.k]
		b.farParts[p] = uint32(partCode(cols[:b.farSplit], n)) | uint32(partCode(cols[b.farSplit:], n))<<16
	}
	return b
}

// partCode numbers a part of a far placement (at most 3 rows) by its
// columns: the sum of column * n^row.
func partCode(cols []byte, n int) int {
	code := 0
	for i := len(cols) - 1; i >= 0; i-- {
		code = code*n + int(cols[i])
	}
	return code
}
