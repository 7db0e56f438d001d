package enumerate

import (
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
	start []int32 // by column set: its first placement; placements come by set
}

// newRowBlocks lists the k-row placements of queens:n.
func newRowBlocks(n, k int) *rowBlocks { return newRowBlocksOff(n, k, -1) }

// newRowBlocksOff lists the k-row placements of queens:n with no queen on
// a long diagonal of the board when the block's first row is the board's
// row offLong (any placement when offLong < 0).
func newRowBlocksOff(n, k, offLong int) *rowBlocks {
	all := uint32(1)<<n - 1
	// The placements in search order, then sorted by column set (stably:
	// a counting sort).
	var sets []uint32
	var below, above []uint64
	var cols []byte
	var placed [32]byte
	var place func(y int, l, down, r uint32, aboveL, aboveR uint32)
	place = func(y int, l, down, r uint32, aboveL, aboveR uint32) {
		if y == k {
			sets = append(sets, down)
			below = append(below, uint64(l)|uint64(r)<<32)
			above = append(above, uint64(aboveL)|uint64(aboveR)<<32)
			cols = append(cols, placed[:k]...)
			return
		}
		free := all &^ (l | down | r)
		if offLong >= 0 {
			row := offLong + y
			free &^= 1<<row | 1<<(n-1-row)
		}
		for ; free != 0; free &= free - 1 {
			c := bits.TrailingZeros32(free)
			bit := uint32(1) << c
			placed[y] = byte(c)
			// A queen on the block's first row attacks (y, c) if it sits
			// y columns to the left (down-right) or to the right (down-left).
			place(y+1, (l|bit)<<1&all, down|bit, (r|bit)>>1, aboveL|bit>>y, aboveR|bit<<y&all)
		}
	}
	place(0, 0, 0, 0, 0, 0)
	b := &rowBlocks{n: n, k: k, start: make([]int32, 1<<n+1)}
	for _, set := range sets {
		b.start[set+1]++
	}
	for set := 1; set < len(b.start); set++ {
		b.start[set] += b.start[set-1]
	}
	b.below = make([]uint64, len(sets))
	b.above = make([]uint64, len(sets))
	b.cols = make([]byte, len(cols))
	next := slices.Clone(b.start)
	for i, set := range sets {
		to := next[set]
		next[set]++
		b.below[to], b.above[to] = below[i], above[i]
		copy(b.cols[int(to)*k:], cols[i*k:(i+1)*k])
	}
	return b
}

// placements is the number of placements listed.
func (b *rowBlocks) placements() int { return len(b.below) }

// on gives the range of placements using exactly the columns set.
func (b *rowBlocks) on(set uint32) (from, to int) {
	return int(b.start[set]), int(b.start[set+1])
}

// halfBlocks are the blocks the join counter's halves of h rows are made
// of: a top half is an upper block of h/2 rows on a lower block of the
// rest; a bottom half's far rows (those farthest from the boundary) are a
// block of farRows(n) rows.
type halfBlocks struct {
	upper, lower, far *rowBlocks
	// Each far placement as two parts, its first farSplit rows and the
	// rest, each numbered by its columns (see partCode): the first part's
	// number in the low 16 bits, the rest's in the high 16.
	farSplit int
	farParts []uint32
}

func newHalfBlocks(n int) *halfBlocks { return newHalfBlocksFar(n, farRows(n)) }

// newHalfBlocksFar is newHalfBlocks with farK far rows.
func newHalfBlocksFar(n, farK int) *halfBlocks {
	h := n / 2
	blocks := map[int]*rowBlocks{}
	block := func(k int) *rowBlocks {
		if blocks[k] == nil {
			blocks[k] = newRowBlocks(n, k)
		}
		return blocks[k]
	}
	far := block(farK)
	b := &halfBlocks{upper: block(h / 2), lower: block(h - h/2), far: far, farSplit: far.k / 2}
	b.farParts = make([]uint32, far.placements())
	for p := range b.farParts {
		cols := far.cols[p*far.k : (p+1)*far.k]
		b.farParts[p] = uint32(partCode(cols[:b.farSplit], n)) | uint32(partCode(cols[b.farSplit:], n))<<16
	}
	return b
}

// farRows is the number of far rows of the bottom halves of queens:n: 6
// for queens:17 to 19 (measured fastest at 17 and 18; the block of 6 rows
// has 1.7 and 2.4 million placements there, built in a few tenths of a
// second), else h/2+1 (h = n/2), as measured fastest up to queens:16, but
// at most 5 (a block of 6 rows has 6 million placements and more on larger
// boards) and below h (the bottom's first row is searched).
func farRows(n int) int {
	h := n / 2
	if n >= 17 && n <= 19 {
		return 6
	}
	return min(h/2+1, 5, h-1)
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
