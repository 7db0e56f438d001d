package enumerate

import (
	"math/bits"
	"slices"
	"sync/atomic"
)

// The halves counter counts the solutions of queens:n, odd or even. It
// cuts the board into a top half (rows 0..h-1, h = n/2) and a bottom half
// (the last h rows); for odd n the middle row between them holds one
// queen, in column m. For each set D of h columns it pairs the tops on D
// with the bottoms on the columns left, but it searches neither half
// against the other: it lists both and counts the pairs that do not attack
// each other with bit-parallel table lookups, many tops at once.
//
//   - Halves. A bottom turned upside down is a top: both are placements of
//     h queens on rows 0..h-1, listed from two blocks of rows (h/2 rows on
//     the rest), each block's placements on each column set listed once for
//     the whole count. For each way to cut D in two, every pair of
//     placements is tested with one mask AND, 8 pairs to an instruction on
//     CPUs with AVX-512 (joinHalves). For odd n the middle queen's column is
//     in neither half, and a placement its diagonals meet is dropped by a
//     second AND in the same loop.
//   - Keys. A half matters to the other only through where its queens'
//     diagonals cross row h (the first bottom row, or the middle row): a key
//     of 2F bits, F = n-1 for even n and n-2 for odd n (the middle row's
//     end squares are no diagonal's crossing that both halves can share). A
//     top's and a bottom's key share a bit exactly when they attack each
//     other; as a top and as a bottom a half's key differs only by which
//     half of it holds which diagonal.
//   - Tables. The tops become the bits of bitsets, one bitset per key bit:
//     the tops without it. The key bits are cut into chunks, and for each
//     chunk and each of its values the bitset of the tops with none of the
//     value's bits is worked out once per D. A bottom's tops are then the
//     AND of one bitset per chunk, whatever its number of queens: on 512
//     tops at a time with AVX-512 (matchBottoms), else word by word.
//   - Symmetry. Each long diagonal of the board holds at most one queen,
//     and for odd n none is in the middle row unless it is the centre. The
//     reflections in the two long diagonals move such a queen from one half
//     to the other (the top half of the image is the old one's left or
//     right half, not its top: only the numbers count), so every solution is
//     the image of exactly one whose top has no queen on a long diagonal. So
//     only such tops are matched, and a bottom with k queens on the long
//     diagonals stands for 2^k solutions. The left-right mirror halves the
//     rest: the sets D no larger than their mirror image (even n, and the
//     centre column for odd n) or the middle columns left of the centre
//     (odd n), each weighted by 2 unless it is its own image.
//   - Pairs. Both halves of a pair (D, the columns left) are listed with
//     every placement, those with no queen on a long diagonal marked, so
//     each list serves as the tops of one count and the bottoms of another:
//     each item counts D's tops against the other columns' bottoms and the
//     other columns' tops against D's bottoms. For even n the second is the
//     mirror image of another set's count (the mirror of the columns left),
//     for odd n with the middle queen off the centre simply another set's
//     count. So each list is made once, where tops and bottoms were made
//     apart.
//
// The AND-and-count loop and the pair tests are the counter's work; on
// amd64 with AVX-512 both run on vectors of 512 bits, else word by word.

// HalvesCounterApplies tells whether count-only builds of queens:n use the
// halves counter: n from 16 to 23 on a CPU with the 512-bit vector
// instructions its loops are written for (see vectorMatch). Elsewhere the
// join counter is used: without them it is faster, and below queens:16
// either takes a fraction of a second, so that small counts (and their
// search nodes, and their units) are the same on every machine.
func HalvesCounterApplies(n int) bool {
	return vectorMatch && n >= 16 && halvesCounts(n)
}

// halvesCounts tells whether the halves counter can count queens:n: its
// keys hold crossings of up to 23 columns.
func halvesCounts(n int) bool { return n >= 4 && n <= 23 }

// A halvesItem is how a column set D of the halves counter's units is
// counted: whether it is listed at all, its weight (the mirror images it
// stands for), and whether the columns left also count as tops.
type halvesItem struct {
	listed, both bool
	weight       int64
}

// halvesItemOf classifies the set d of top columns (with the middle queen
// in column m, or m < 0 for even n).
func halvesItemOf(n, m int, d uint32) halvesItem {
	h := n / 2
	free := uint32(1)<<n - 1
	if m >= 0 {
		free &^= 1 << m
	}
	if d&^free != 0 || bits.OnesCount32(d) != h {
		return halvesItem{}
	}
	y := free ^ d
	if m >= 0 && m < h {
		// The mirror image has its middle queen right of the centre: every
		// set of this column stands for itself and its image. The sets d
		// and y are counted together, under the smaller.
		return halvesItem{listed: d < y, both: true, weight: 2}
	}
	if m > h {
		return halvesItem{} // the mirror image of one with m < h
	}
	// Even n, or the middle queen in the centre: the sets no larger than
	// their mirror image. The columns left, mirrored, are one of them too
	// (the order of sets reverses with their complements): counted with d,
	// under the smaller of the two.
	r := reverseBits(d, n)
	e := reverseBits(y, n)
	item := halvesItem{listed: d <= r && d <= e, both: d != e, weight: 2}
	if d == r {
		item.weight = 1
	}
	return item
}

// queensHalvesUnits lists the work units of the halves counter for
// queens:n: its items in order of middle column, then column set, cut into
// units as the join counter's are.
func queensHalvesUnits(n int) []JoinUnit {
	h := n / 2
	all := uint32(1)<<n - 1
	ms := []int{-1}
	if n%2 == 1 {
		ms = ms[:0]
		for m := 0; m <= h; m++ {
			ms = append(ms, m)
		}
	}
	var keys []JoinKey
	for _, m := range ms {
		for d := uint32(1)<<h - 1; d <= all; {
			if halvesItemOf(n, m, d).listed {
				keys = append(keys, JoinKey{m, d})
			}
			low := d & -d
			next := d + low
			d = next | (next^d)/low>>2
		}
	}
	return joinUnits(n, keys, true)
}

// countUnit counts the solutions the unit's items stand for, and the pairs
// of blocks and the bottoms it tested.
func (m *halvesMatcher) countUnit(u JoinUnit) (solutions, nodes int64) {
	m.nodes = 0
	for _, k := range u.Keys {
		solutions += m.countItem(k.M, k.D)
	}
	return solutions, m.nodes
}

// A halfBlock lists the placements of k queens on k consecutive rows of a
// half, no two attacking each other, grouped by their column set, as two
// arrays: the masks their pairs are tested with, and their parts of the
// half's key.
type halfBlock struct {
	k     int
	start []int32 // by column set: its first placement; placements come by set
	// For the upper block, where its queens' diagonals cross the row below
	// it (down-right | down-left<<32); for the lower block, where a queen
	// above it would cross its first row to attack one of its queens.
	mask []uint64
	// The placement's part of the key of a half (see keyLayout): the two
	// parts of a half add up to its key.
	key  []uint64
	most int // the most placements a column set has
	// ranked: start is indexed by the rank of a set among the sets of k
	// columns that hold the columns every placement uses (fixed) and no
	// column none uses, and sets lists those with placements. Ranked
	// among the columns in use, not all n, the index of a block under a
	// filter is a fraction of the size and mostly stays in the caches.
	ranked  bool
	sets    []uint32
	setFrom []int32 // setFrom[i]: the first placement of sets[i]; one more: the end
	fixed   uint32  // the columns every placement uses
	free    uint32  // the other columns some placement uses
	// rankTab gives rank by the bytes of a set's free columns: entry
	// (j*256+v)*(pick+1)+c is what byte j, of value v, adds to the rank
	// with c columns below it (pick: the free columns of a set).
	rankTab []int32
	pick    int
}

// on gives the range of placements using exactly the columns set.
func (b *halfBlock) on(set uint32) (from, to int) {
	if b.ranked {
		i, ok := b.rank(set)
		if !ok {
			return 0, 0
		}
		return int(b.start[i]), int(b.start[i+1])
	}
	return int(b.start[set]), int(b.start[set+1])
}

// rank is the index of set in a ranked block: the rank of its columns of
// free, as if free's columns were the first ones, among the sets of as many
// columns in colexicographic order (the order of the sets as numbers: the
// rank of columns c_0 < c_1 < ... is the sum of C(c_i, i+1)); false if no
// placement can use set (it lacks a fixed column, has one not in use, or
// has not k columns).
func (b *halfBlock) rank(set uint32) (int, bool) {
	x := set &^ b.fixed
	if set&b.fixed != b.fixed || x&^b.free != 0 || bits.OnesCount32(x) != b.pick {
		return 0, false
	}
	// Four lookups, not one step a column: a cut count ranks a set for
	// every way to cut each column set it counts.
	w := uint32(b.pick + 1)
	c1 := uint32(bits.OnesCount32(x & 0xff))
	c2 := c1 + uint32(bits.OnesCount32(x>>8&0xff))
	c3 := c2 + uint32(bits.OnesCount32(x>>16&0xff))
	t := b.rankTab
	return int(t[(x&0xff)*w] + t[(256+x>>8&0xff)*w+c1] + t[(512+x>>16&0xff)*w+c2] + t[(768+x>>24)*w+c3]), true
}

// useColumns sets fixed, free and the rank table from the sets of the
// placements.
func (b *halfBlock) useColumns(sets [][]uint32) {
	fixed, used := ^uint32(0), uint32(0)
	for _, piece := range sets {
		for _, set := range piece {
			fixed &= set
			used |= set
		}
	}
	if used == 0 {
		fixed = 0
	}
	b.fixed, b.free = fixed, used&^fixed
	b.pick = b.k - bits.OnesCount32(fixed)
	var slot [32]int // by column of free: its place among free's columns
	i := 0
	for x := b.free; x != 0; x &= x - 1 {
		slot[bits.TrailingZeros32(x)] = i
		i++
	}
	w := b.pick + 1
	b.rankTab = make([]int32, 4*256*w)
	for j := range 4 {
		for v := range 256 {
			for c := range w {
				// The columns of v, the c+1-th of the set first.
				r, t := int64(0), c
				for x := uint32(v) << (8 * j) & b.free; x != 0; x &= x - 1 {
					t++
					r += binomial[slot[bits.TrailingZeros32(x)]][min(t, 32)]
				}
				b.rankTab[(j*256+v)*w+c] = int32(r)
			}
		}
	}
}

// newHalfBlockIn lists the placements of rows from..from+k-1 of queens:n
// (a half being rows 0..h-1; upper tells which of the two masks to keep),
// the queen of each row r of the half in a column of allowed[r] (nil: any). With allowed the keys count no
// queens on the long diagonals: a constrained count uses no symmetry, so
// every top is matched and every bottom stands for itself. It gives nil
// soon after stop is set (stop may be nil): a constrained count's Ctrl-C
// does not wait for the listing.
func newHalfBlockIn(n, from, k int, upper bool, allowed []uint32, stop *atomic.Bool) *halfBlock {
	return newHalfBlockAt(n, n/2, from, k, upper, allowed, stop, newKeyLayout(n), false)
}

// blockLister lists the placements of a block of rows (see newHalfBlockAt)
// in two passes of the same search, which finds them in the same order
// each time: the first lists their column sets, the second writes each
// placement's mask and key in the place its set's rank gives. Searching
// twice costs less than keeping the masks and keys in lists as well: a
// block's fresh memory is then 20 bytes a placement, not 36, and the kernel
// clears fresh memory at a gigabyte a second on some machines.
type blockLister struct {
	n, rows, from, k int
	all              uint32
	upper            bool
	allowed          []uint32
	stop             *atomic.Bool
	lay              keyLayout
	// The first pass's column sets, in pieces, not in a slice that grows:
	// a block of tens of millions of placements made gigabytes of copies
	// as it grew. Ranked, they are the second pass's index of each
	// placement's set.
	sets pieces[uint32]
	// The second pass: it writes, and reads the sets at (piece, at).
	writing   bool
	ranks     [][]uint32
	piece, at int
	next      []int32 // by set: where its next placement goes
	mask, key []uint64
}

// place places the queens of the block's rows y..k-1 (k > y), those above
// leaving the diagonals l and r on row y and the columns down; aboveL and
// aboveR are where a queen on the row above the block would cross them,
// long the queens on the long diagonals.
func (b *blockLister) place(y int, l, down, r, aboveL, aboveR uint32, long uint64) {
	row := b.from + y
	free := b.all &^ (l | down | r)
	if b.allowed != nil {
		free &= b.allowed[row]
	}
	if y == b.k-1 {
		// The last row is placed in this loop, not by a call for each
		// placement: most of the search's steps end here.
		if b.writing {
			b.write(y, row, free, l, r, aboveL, aboveR, long)
			return
		}
		// The last piece is kept here while there is room in it.
		sets, room := b.sets.last, min(b.sets.room(), cap(b.sets.last))
		for ; free != 0; free &= free - 1 {
			n := len(sets)
			if n == room {
				b.sets.last = sets
				b.sets.add(down | free&-free)
				sets, room = b.sets.last, min(b.sets.room(), cap(b.sets.last))
				continue
			}
			sets = sets[:n+1]
			sets[n] = down | free&-free
		}
		b.sets.last = sets
		return
	}
	if b.stop != nil && b.stop.Load() {
		return
	}
	for ; free != 0; free &= free - 1 {
		bit := free & -free
		// A queen on the block's first row attacks (y, c) if it sits y
		// columns to the left (down-right) or to the right (down-left).
		b.place(y+1, (l|bit)<<1&b.all, down|bit, (r|bit)>>1, aboveL|bit>>y, aboveR|bit<<y&b.all, long+b.onLong(row, bit))
	}
}

// write writes the mask and key of the placements that end on the block's
// last row y (row of the half) in a column of free.
func (b *blockLister) write(y, row int, free, l, r, aboveL, aboveR uint32, long uint64) {
	shift := b.rows - b.from - b.k // crossings of row from+k, moved on to the half's last row
	ranks, at := b.ranks[b.piece], b.at
	// In locals: the stores below may not alias b's fields, but the
	// compiler cannot tell.
	next, masks, keys, all, lay, upper := b.next, b.mask, b.key, b.all, b.lay, b.upper
	for ; free != 0; free &= free - 1 {
		bit := free & -free
		nl, nr := (l|bit)<<1&all, (r|bit)>>1
		mask := uint64(aboveL|bit>>y) | uint64(aboveR|bit<<y&all)<<32
		if upper {
			mask = uint64(nl) | uint64(nr)<<32
		}
		if at == len(ranks) {
			b.piece++
			ranks, at = b.ranks[b.piece], 0
		}
		set := ranks[at]
		at++
		to := next[set]
		next[set]++
		masks[to] = mask
		keys[to] = lay.key(nl<<shift&all, nr>>shift, long+b.onLong(row, bit))
	}
	b.at = at
}

// onLong is 1 if the queen at column bit of row is on a long diagonal,
// which the keys count only without a filter.
func (b *blockLister) onLong(row int, bit uint32) uint64 {
	if b.allowed == nil {
		if c := bits.TrailingZeros32(bit); c == row || c == b.n-1-row {
			return 1
		}
	}
	return 0
}

// newHalfBlockAt is newHalfBlockIn for a half of rows rows whose keys are
// laid out by lay; ranked indexes the column sets by their rank among the
// sets of k columns (see halfBlock.rank) instead of by the set itself, which
// would take 2^n entries.
func newHalfBlockAt(n, rows, from, k int, upper bool, allowed []uint32, stop *atomic.Bool, lay keyLayout, ranked bool) *halfBlock {
	l := blockLister{n: n, rows: rows, from: from, k: k, all: uint32(1)<<n - 1, upper: upper, allowed: allowed, stop: stop, lay: lay}
	if k == 0 {
		l.sets.add(0)
	} else {
		l.place(0, 0, 0, 0, 0, 0, 0)
	}
	if stop != nil && stop.Load() {
		return nil
	}
	b := &halfBlock{k: k, ranked: ranked}
	index := 1 << n
	if ranked {
		b.useColumns(l.sets.all())
		index = int(binomial[bits.OnesCount32(b.free)][b.pick])
	}
	b.start = hugeSlice[int32](index + 1)
	for _, piece := range l.sets.all() {
		for i, set := range piece {
			if ranked {
				r, _ := b.rank(set)
				set = uint32(r)
				piece[i] = set
			}
			b.start[set+1]++
		}
	}
	for set := 1; set < len(b.start); set++ {
		b.most = max(b.most, int(b.start[set]))
		b.start[set] += b.start[set-1]
	}
	b.mask = hugeSlice[uint64](l.sets.len())
	b.key = hugeSlice[uint64](l.sets.len())
	l.writing, l.ranks, l.next = true, l.sets.all(), slices.Clone(b.start[:len(b.start)-1])
	l.mask, l.key = b.mask, b.key
	if k == 0 {
		b.mask[0], b.key[0] = 0, lay.key(0, 0, 0)
	} else {
		l.place(0, 0, 0, 0, 0, 0, 0)
	}
	if stop != nil && stop.Load() {
		return nil
	}
	if ranked {
		// The sets by rank are the subsets of pick of free's columns in
		// the order of rank, which nextSameCount steps through.
		var cols [32]uint32
		i := 0
		for x := b.free; x != 0; x &= x - 1 {
			cols[i] = x & -x
			i++
		}
		packed := uint64(1)<<b.pick - 1
		for set := range b.start[:len(b.start)-1] {
			if b.start[set] < b.start[set+1] {
				q := b.fixed
				for x := packed; x != 0; x &= x - 1 {
					q |= cols[bits.TrailingZeros64(x)]
				}
				b.sets = append(b.sets, q)
				b.setFrom = append(b.setFrom, b.start[set])
			}
			if packed != 0 {
				packed = nextSameCount(packed)
			}
		}
		b.setFrom = append(b.setFrom, b.start[len(b.start)-1])
	}
	return b
}

// halvesBlocks are the blocks of the halves counter of queens:n: a half is
// an upper block of h/2 rows on a lower block of the rest.
type halvesBlocks struct {
	upper, lower *halfBlock
}

func newHalvesBlocks(n int) *halvesBlocks { return newHalvesBlocksIn(n, nil, nil) }

// newHalvesBlocksIn is newHalvesBlocks with the queen of each row r of the
// half in a column of allowed[r] (nil: any; see newHalfBlockIn), or nil
// if stop was set as they were listed.
func newHalvesBlocksIn(n int, allowed []uint32, stop *atomic.Bool) *halvesBlocks {
	h := n / 2
	up := h / 2
	b := &halvesBlocks{}
	done := make(chan struct{})
	go func() {
		b.lower = newHalfBlockIn(n, up, h-up, false, allowed, stop)
		close(done)
	}()
	b.upper = newHalfBlockIn(n, 0, up, true, allowed, stop)
	<-done
	if b.upper == nil || b.lower == nil {
		return nil
	}
	return b
}

// The keys. A top and a bottom (turned upside down: a placement of rows
// 0..h-1 too) attack each other when the top's down-right diagonal meets
// the bottom's, or their down-left ones do: where they cross row h (the
// row below the top half). For even n the bottom's first row is row h, and
// turned upside down its diagonals cross row h one row further off: a
// top's down-right crossing at c meets a bottom's at c-1 (and a
// down-left one at c a bottom's at c+1). For odd n the middle row stays in
// place: they meet at the same column.
//
// So a half's key, as a bottom, holds its down-left crossings (from column
// 0 for even n, 1 for odd n) in its low field of F bits and its down-right
// ones (from column 1) in the high field; as a top the same two fields
// swapped: a top's and a bottom's key share a bit exactly when they attack
// each other. Crossings outside the fields meet nothing of the other half.
// For odd n a down-left crossing at column 0 is kept in bit 61, for the
// middle queen in column 0 to be tested against (see midKey); bits 62-63
// hold the half's queens on the board's long diagonals.

// keyLayout is what the keys of queens:n look like.
type keyLayout struct {
	fieldBits int    // F
	shiftR    int    // the column of the low field's first bit: 0 for even n, 1 for odd n
	field     uint64 // 1<<F - 1
}

func newKeyLayout(n int) keyLayout {
	if n%2 == 1 {
		return keyLayout{n - 2, 1, 1<<(n-2) - 1}
	}
	return keyLayout{n - 1, 0, 1<<(n-1) - 1}
}

// key is the key of a half or part of one whose diagonals cross row h at l
// (down-right) and r (down-left), with long queens on the long diagonals.
func (k keyLayout) key(l, r uint32, long uint64) uint64 {
	key := uint64(r)>>k.shiftR&k.field | (uint64(l)>>1&k.field)<<k.fieldBits | long<<62
	if k.shiftR == 1 {
		key |= uint64(r&1) << 61
	}
	return key
}

// top is a half's key as a top.
func (k keyLayout) top(key uint64) uint64 {
	return key>>k.fieldBits&k.field | (key&k.field)<<k.fieldBits
}

// midKey is the key of what the middle queen in column mid (0 to n-2;
// the counter's are left of the centre or on it) is attacked by: a half's
// diagonal crossing row h at mid.
func (k keyLayout) midKey(mid int) uint64 {
	return k.key(1<<mid, 1<<mid, 0)
}

// halvesMatcher holds one worker's buffers.
type halvesMatcher struct {
	n, h   int
	all    uint32
	blocks *halvesBlocks
	layout keyLayout

	halvesX, halvesY []uint64 // the keys of the halves of an item's two column sets
	splits           []int32  // by cut of a column set: its upper and lower placements (from, to)
	swapped          []int32  // the same, lower then upper, for the splits a cut counter joins the other way round
	setsWithin       []int32  // scratch for setsIn
	scratch          []uint64
	tops             []uint64
	notHave          []uint64 // by key bit: the tops without it
	valid            []uint64 // the tops there are, by word
	table            matchTable
	nodes            int64
	vector           bool // the AVX-512 loops, where the CPU has them
}

// A matchTable holds, for each chunk of a bottom's key and each value of
// it, the bitset of the tops with none of the value's bits (see match):
// by chunk, then value, a row of lanes lanes of laneWords words (8 for
// the vector loops, else 1).
type matchTable struct {
	words            []uint64
	lanes, laneWords int
	chunks           int // chunks of chunkBits key bits
	chunkBits        int
	// The vector loops look up only the key bits some top and some bottom
	// have (live), packed (PEXTQ): rowOf gives each packed bit's row of
	// notHave (those past the live bits a row of every top). Without them
	// every key bit is looked up, as it is.
	live     uint64
	rowOf    []int
	rowBytes []int // rowOf in bytes, for the vector loop
	// The tops of a table of two lanes or more come in groups by two of
	// the cut bits (cuts: four key bits near the middle of row h that tops
	// and bottoms have most often, in ascending order), of three or more
	// by all four (cutMask: those in use). The groups are in an order
	// (cutOrders) in which those a bottom can meet, the ones with none of
	// its cut bits, lie close together: the bottom reads the lanes from the
	// first of them to the last, intervals[its cut bits packed] (from, to).
	cuts      [4]int
	cutMask   uint64
	intervals [16][2]int
	// byteIntervals is intervals in bytes, for the vector loops.
	byteIntervals [32]int
}

// cutOrders are the orders of the cut groups (by their cut bits packed,
// the lowest first) for two and four cut bits: those that make the lanes
// bottoms read fewest, for bits each top and bottom has about half the
// time (found by search; with two bits every bottom's groups lie side by
// side).
var cutOrders = map[int][]int{
	2: {1, 0, 2, 3},
	4: {15, 14, 13, 12, 10, 8, 2, 0, 4, 6, 1, 9, 5, 3, 7, 11},
}

func newHalvesMatcher(n int, blocks *halvesBlocks) *halvesMatcher {
	layout := newKeyLayout(n)
	cb := halvesChunkBits(n)
	m := &halvesMatcher{n: n, h: n / 2, all: uint32(1)<<n - 1, blocks: blocks, layout: layout, vector: vectorMatch}
	m.table.chunkBits, m.table.chunks = cb, (2*layout.fieldBits+cb-1)/cb
	m.table.cuts = halvesCuts(n, layout)
	return m
}

// halvesChunkBits is the number of key bits a table chunk holds for
// queens:n.
func halvesChunkBits(n int) int {
	switch {
	case n <= 17:
		return 5
	default:
		return 6
	}
}

// halvesCuts are the four key bits by which the tops are grouped, in
// ascending order: two down-left and two down-right crossings near the
// middle of row h, bits that tops and bottoms have in about half of them
// each (the middle two, the first to be used, at columns h+1 and h+1 for
// odd n, h-2 and h+1 for even n; the others two columns to the left).
func halvesCuts(n int, lay keyLayout) [4]int {
	h, f := n/2, lay.fieldBits
	if n%2 == 1 {
		return [4]int{h - 2, h, f + h - 2, f + h}
	}
	return [4]int{h - 4, h - 2, f + h - 2, f + h}
}

// countItem counts the solutions the item (the middle queen in column mid,
// -1 for even n; top columns d) stands for.
func (m *halvesMatcher) countItem(mid int, d uint32) int64 {
	item := halvesItemOf(m.n, mid, d)
	if !item.listed {
		return 0
	}
	y := m.all ^ d
	var midKey uint64
	if mid >= 0 {
		y &^= 1 << mid
		midKey = m.layout.midKey(mid)
	}
	m.halvesX = m.halves(m.halvesX[:0], d, midKey)
	if len(m.halvesX) == 0 {
		return 0
	}
	m.halvesY = m.halves(m.halvesY[:0], y, midKey)
	if len(m.halvesY) == 0 {
		return 0
	}
	// The key bits some top and some bottom have.
	allX, cleanX := orKeys(m.halvesX, m.vector)
	allY, cleanY := orKeys(m.halvesY, m.vector)
	keyBits := uint64(1)<<(2*m.layout.fieldBits) - 1
	count := m.match(m.halvesX, m.halvesY, m.layout.top(cleanX)&allY&keyBits)
	if item.both {
		count += m.match(m.halvesY, m.halvesX, m.layout.top(cleanY)&allX&keyBits)
	}
	return item.weight * count
}

// orKeysGo gives the OR of the keys, and of those with no queen on a long
// diagonal.
func orKeysGo(halves []uint64) (all, clean uint64) {
	for _, key := range halves {
		all |= key
		if key>>62 == 0 {
			clean |= key
		}
	}
	return all, clean
}

// halves appends the keys of the placements of rows 0..h-1 on exactly the
// columns d that the middle queen (its midKey) does not attack: for each
// way to cut d into the columns of the upper block and those of the lower
// one, the pairs of their placements that do not attack each other.
func (m *halvesMatcher) halves(dst []uint64, d uint32, midKey uint64) []uint64 {
	up, low := m.blocks.upper, m.blocks.lower
	var pairs int64
	splits := m.splits[:0]
	for q := d; ; q = (q - 1) & d {
		if bits.OnesCount32(q) == up.k {
			uFrom, uTo := up.on(q)
			lFrom, lTo := low.on(d ^ q)
			if uFrom < uTo && lFrom < lTo {
				pairs += int64(uTo-uFrom) * int64(lTo-lFrom)
				splits = append(splits, int32(uFrom), int32(uTo), int32(lFrom), int32(lTo))
			}
		}
		if q == 0 {
			break
		}
	}
	m.splits = append(splits, make([]int32, joinReadAhead)...)
	splits = m.splits[:len(splits)]
	m.nodes += pairs
	return joinHalves(dst, m.blocks, splits, pairs, midKey, m.vector, &m.scratch)
}

// joinHalvesGo appends, for each cut of a column set (splits: from and to
// of its upper and its lower placements), the sums of the keys of the
// pairs of an upper and a lower placement whose masks share no bit,
// leaving out those whose key meets midKey.
func joinHalvesGo(dst []uint64, b *halvesBlocks, splits []int32, midKey uint64) []uint64 {
	for s := 0; s+3 < len(splits); s += 4 {
		upMask, upKey := b.upper.mask[splits[s]:splits[s+1]], b.upper.key[splits[s]:splits[s+1]]
		lowMask, lowKey := b.lower.mask[splits[s+2]:splits[s+3]], b.lower.key[splits[s+2]:splits[s+3]]
		lowKey = lowKey[:len(lowMask)]
		for i, um := range upMask {
			uk := upKey[i]
			if uk&midKey != 0 {
				continue
			}
			k := len(dst)
			dst = slices.Grow(dst, len(lowMask))[:k+len(lowMask)]
			// Write every pair, keep those that join: no branch to mispredict.
			for j, lm := range lowMask {
				lk := lowKey[j]
				dst[k] = uk + lk
				x := um&lm | lk&midKey
				k += int((x|-x)>>63) ^ 1
			}
			dst = dst[:k]
		}
	}
	return dst
}

// match counts the pairs of a top among the halves tops (only those with
// no queen on a long diagonal) and a bottom among bottoms that do not
// attack each other, each weighted by 2 to the power of the bottom's
// queens on the long diagonals.
func (m *halvesMatcher) match(tops, bottoms []uint64, live uint64) int64 {
	if m.vector && len(tops) <= maxDirectTops {
		// Few tops: testing each bottom against every top may cost less
		// than a table's build and reads.
		room := len(tops) + 8
		m.tops = slices.Grow(m.tops[:0], room)[:room]
		k := cleanTops(m.tops, tops, m.layout, [2]uint64{}, room, m.vector)[0]
		if k == 0 {
			return 0
		}
		if _, _, steps := chunksFor(bits.OnesCount64(live), 1, len(bottoms)); k*len(bottoms) < directPairs*steps {
			m.nodes += int64(len(bottoms))
			return matchDirect(m.tops[:k], bottoms, m.vector)
		}
	}
	if !m.buildTable(tops, len(bottoms), live) {
		return 0
	}
	m.nodes += int64(len(bottoms))
	return matchBottoms(&m.table, bottoms, m.vector)
}

// maxDirectTops is the most tops the vector loops test every bottom
// against, one by one, rather than look up in a table; directPairs the
// pairs of a top and a bottom they test in the time of one of a table's
// steps (see chunksFor): a test and an add on 8 bottoms at a time. Four
// was measured on the tables of queens:24's six cells.
const (
	maxDirectTops = 256
	directPairs   = 4
)

// matchDirectGo counts the pairs of a top (a key as a top, no queen on a
// long diagonal) and a bottom that share no key bit, each weighted by 2
// to the power of the bottom's queens on the long diagonals.
func matchDirectGo(tops, bottoms []uint64) int64 {
	var total int64
	for _, key := range bottoms {
		count := 0
		for _, top := range tops {
			if top&key == 0 {
				count++
			}
		}
		total += int64(count) << (key >> 62)
	}
	return total
}

// chunksFor is the number of chunks and of their bits for a table of
// lanes lanes looked up by bottoms bottoms on the vector loops, for keys of
// live bits: the fewest vector operations (steps, returned too), building
// the table (chunks times values a lane, at buildWeight each) and reading
// it (chunks a lane a bottom, and about three more).
func chunksFor(live, lanes, bottoms int) (chunks, chunkBits, steps int) {
	best := -1
	for b := minVectorBits; b <= maxVectorBits; b++ {
		c := max(minVectorChunks, (live+b-1)/b)
		if c > maxVectorChunks {
			continue
		}
		cost := buildWeight*c<<b*lanes + bottoms*(lanes*(c+3)+2*c)
		if c<<b*lanes*64 > tableCache {
			cost *= 2 // read from further off than the core's own cache
		}
		if best < 0 || cost < best {
			best, chunks, chunkBits = cost, c, b
		}
	}
	return chunks, chunkBits, best
}

// buildWeight is what an entry of a table costs to build, in steps of
// reading it: a load of the entry it extends and of a row of the tops, an
// AND and a store. Weighed as one step, the tables of queens:24's six cells
// took as long to build as to read, and its count 7% longer than with two;
// three did as well there but cost queens:25's five cells 4% more.
const buildWeight = 2

// tableCache is the most bytes of table a core's cache keeps beside the
// blocks being read: half of the 2 MB of L2 of current server cores.
const tableCache = 1 << 20

// buildTable works out the matching table of the tops among halves, for
// bottoms bottoms and the key bits live; false if there are no tops.
func (m *halvesMatcher) buildTable(halves []uint64, bottoms int, live uint64) bool {
	t := &m.table
	t.laneWords = 1
	if m.vector {
		t.laneWords = 8
	}
	room := len(halves) + 8
	// Grouped by two cut bits, cuts[1] and [3], if there may be two lanes
	// of tops or more; later by the other two if there are three.
	c1, c3 := uint64(1)<<t.cuts[1], uint64(1)<<t.cuts[3]
	pre := len(halves) >= 2*64*t.laneWords
	var first [2]uint64
	size := room + 64
	if pre {
		first = [2]uint64{c1, c3}
		size = 9*room + 256
	}
	m.tops = slices.Grow(m.tops[:0], size)[:size]
	groups := cleanTops(m.tops, halves, m.layout, first, room, m.vector)
	k := groups[0] + groups[1] + groups[2] + groups[3]
	if k == 0 {
		return false
	}
	w := (k + 63) / 64
	t.lanes = (w + t.laneWords - 1) / t.laneWords
	w = t.lanes * t.laneWords
	tops := m.tops[:(k+63)/64*64]
	t.cutMask, t.intervals = 0, [16][2]int{{0, t.lanes}}
	switch {
	case pre && t.lanes >= 2:
		tops = m.groupTops(groups, room, k)
	case pre:
		// One lane: every bottom reads it; the groups side by side.
		out := m.tops[len(m.tops)-(room+64):]
		at := 0
		for g, n := range groups {
			at += copy(out[at:], m.tops[g*room:g*room+n])
		}
		tops = out[:(k+63)/64*64]
	}
	clear(tops[k:])
	// The chunks: on the vector loops, of the live bits packed; else of
	// every key bit.
	keyBits := 2 * m.layout.fieldBits
	t.rowOf = t.rowOf[:0]
	if m.vector {
		t.live = live
		t.chunks, t.chunkBits, _ = chunksFor(bits.OnesCount64(live), t.lanes, bottoms)
		for x := live; x != 0; x &= x - 1 {
			t.rowOf = append(t.rowOf, bits.TrailingZeros64(x))
		}
	} else {
		t.live = 1<<keyBits - 1
		t.chunkBits = halvesChunkBits(m.n)
		t.chunks = (keyBits + t.chunkBits - 1) / t.chunkBits
		for p := range keyBits {
			t.rowOf = append(t.rowOf, p)
		}
	}
	cb, chunks := t.chunkBits, t.chunks
	bytes := (keyBits + 7) / 8
	// The rows of notHave by key bit, then one of every top for the chunk
	// bits past the key's.
	rows := 8*bytes + 1
	for len(t.rowOf) < chunks*cb {
		t.rowOf = append(t.rowOf, 8*bytes)
	}
	m.notHave = slices.Grow(m.notHave[:0], rows*w)[:rows*w]
	topsBitsets(m.notHave, w, bytes, tops, k, m.vector)
	m.valid = m.notHave[8*bytes*w:]
	for i := range m.valid {
		m.valid[i] = validWord(k, i)
	}
	words := chunks << cb * w
	t.words = slices.Grow(t.words[:0], words)[:words]
	chunkTables(t, m.notHave, m.valid, m.vector)
	return true
}

// groupTops orders the tops, now in four groups by cut bits 1 and 3
// (group g from m.tops[g*room]), as the table's cut groups: with three
// lanes or more each group split again by cut bits 0 and 2. It sets the
// cut mask and the intervals, and returns the tops in order, padded to a
// multiple of 64 with room for zeros.
func (m *halvesMatcher) groupTops(groups [4]int, room, k int) []uint64 {
	t := &m.table
	bits := 2
	var sizes [16]int
	var from [16]int // where each group is in m.tops, by its cut bits packed
	if t.lanes >= 3 {
		bits = 4
		c0, c2 := uint64(1)<<t.cuts[0], uint64(1)<<t.cuts[2]
		at := 4 * room
		for g1, n := range groups {
			sub := splitTops(m.tops[at:at+4*(n+8)], m.tops[g1*room:g1*room+n], c0, c2, n+8, m.vector)
			for g2, size := range sub {
				// Packed, the cut bits run cuts[0], [1], [2], [3].
				v := g2&1 | (g1&1)<<1 | (g2>>1)<<2 | (g1>>1)<<3
				sizes[v], from[v] = size, at+g2*(n+8)
			}
			at += 4 * (n + 8)
		}
		t.cutMask = 1<<t.cuts[0] | 1<<t.cuts[1] | 1<<t.cuts[2] | 1<<t.cuts[3]
	} else {
		for g, n := range groups {
			sizes[g], from[g] = n, g*room
		}
		t.cutMask = 1<<t.cuts[1] | 1<<t.cuts[3]
	}
	order := cutOrders[bits]
	out := m.tops[len(m.tops)-(room+64):]
	var pos [16]int
	var start [17]int
	for i, v := range order {
		pos[v] = i
		start[i+1] = start[i] + sizes[v]
		copy(out[start[i]:], m.tops[from[v]:from[v]+sizes[v]])
	}
	per := 64 * t.laneWords
	for v := range 1 << bits {
		lo, hi := len(order), -1
		for u := range 1 << bits {
			if u&v == 0 {
				lo, hi = min(lo, pos[u]), max(hi, pos[u])
			}
		}
		t.intervals[v] = [2]int{start[lo] / per, (start[hi+1] + per - 1) / per}
	}
	return out[:(k+63)/64*64]
}

// cleanTopsGo writes the keys as tops of the halves with no queen on a
// long diagonal to dst by their cut group (bit 0: they have cuts[0], bit
// 1: cuts[1]; all in group 0 if cuts[0] is 0), group g from dst[g*room],
// and returns the size of each group.
func cleanTopsGo(dst, halves []uint64, lay keyLayout, cuts [2]uint64, room int) (groups [4]int) {
	for _, key := range halves {
		if key>>62 != 0 {
			continue
		}
		top := lay.top(key)
		g := cutGroup(top, cuts)
		dst[g*room+groups[g]] = top
		groups[g]++
	}
	return groups
}

// cutGroup is the group of a top by two cut bits: bit 0 if it has
// cuts[0], bit 1 if cuts[1].
func cutGroup(top uint64, cuts [2]uint64) int {
	g := 0
	if top&cuts[0] != 0 {
		g |= 1
	}
	if top&cuts[1] != 0 {
		g |= 2
	}
	return g
}

// splitTopsGo writes the tops to dst by their group by two cut bits
// (see cutGroup), group g from dst[g*room], and returns the size of each
// group.
func splitTopsGo(dst, tops []uint64, cuts [2]uint64, room int) (groups [4]int) {
	for _, top := range tops {
		g := cutGroup(top, cuts)
		dst[g*room+groups[g]] = top
		groups[g]++
	}
	return groups
}

// topsBitsetsGo writes to row p of notHave (w words each, bytes*8 rows)
// the bitset of the n tops without key bit p: 64 tops at a time, as a
// matrix of bits transposed.
func topsBitsetsGo(notHave []uint64, w, bytes int, tops []uint64, n int) {
	var block [64]uint64
	for word := 0; word < w; word++ {
		block = [64]uint64{}
		from := min(n, word*64)
		copy(block[:], tops[from:min(n, from+64)])
		transpose64(&block)
		valid := validWord(n, word)
		for b := 0; b < 8*bytes; b++ {
			notHave[b*w+word] = ^block[b] & valid
		}
	}
}

// chunkTablesGo fills the table of each chunk: the row of value 0 holds
// the tops there are (valid), the row of value v the AND of the row of v
// without its lowest bit and the tops without that bit (notHave: the
// bitsets by key bit, as long as a row).
func chunkTablesGo(t *matchTable, notHave, valid []uint64) {
	values, w := 1<<t.chunkBits, t.lanes*t.laneWords
	for ch := range t.chunks {
		rows := t.words[ch*values*w : (ch+1)*values*w]
		copy(rows[:w], valid)
		for v := 1; v < values; v++ {
			prev := rows[(v&(v-1))*w:]
			bit := notHave[t.rowOf[ch*t.chunkBits+bits.TrailingZeros(uint(v))]*w:]
			dst := rows[v*w : v*w+w]
			for i := range dst {
				dst[i] = prev[i] & bit[i]
			}
		}
	}
}

// validWord is the mask of the tops that exist in word i of a bitset of n
// tops.
func validWord(n, i int) uint64 {
	left := n - 64*i
	switch {
	case left <= 0:
		return 0
	case left >= 64:
		return ^uint64(0)
	}
	return 1<<left - 1
}

// matchBottomsGo counts, over the bottoms' keys, the tops each leaves:
// over the lanes of its cut group's interval, the AND of one table row
// per chunk, each count times 2 to the power of the bottom's weight.
func matchBottomsGo(t *matchTable, bottoms []uint64) int64 {
	var total int64
	var rowsBuf [16][]uint64 // up to 11 chunks of 6 bits: the keys of queens:32
	rows := rowsBuf[:t.chunks]
	values, lw := 1<<t.chunkBits, t.laneWords
	w := t.lanes * lw
	mask := uint64(values - 1)
	for _, key := range bottoms {
		packed := pext(key, t.live)
		for ch := range rows {
			row := ch*values + int(packed>>(t.chunkBits*ch)&mask)
			rows[ch] = t.words[row*w : (row+1)*w]
		}
		in := t.intervals[pext(key, t.cutMask)]
		count := 0
		for i := in[0] * lw; i < in[1]*lw; i++ {
			acc := rows[0][i]
			for _, row := range rows[1:] {
				acc &= row[i]
			}
			count += bits.OnesCount64(acc)
		}
		total += int64(count) << (key >> 62)
	}
	return total
}

// pext packs the bits of x that mask has into the low bits, in order (as
// the PEXTQ instruction does); it keeps x as it is if mask is its low bits.
func pext(x, mask uint64) uint64 {
	if mask&(mask+1) == 0 {
		return x & mask
	}
	var packed uint64
	for i := 0; mask != 0; i++ {
		packed |= (x >> bits.TrailingZeros64(mask) & 1) << i
		mask &= mask - 1
	}
	return packed
}

// pieces is a list of values kept in pieces, so that it grows without
// copying: the first piece is made whole, of firstPiece values on small
// pages, which the kernel provides only as they are written (a small list
// stays small); the others of pieceLen values on huge pages (a large list
// is written once, and small pages would cost a fault each).
type pieces[T uint32 | uint64] struct {
	full [][]T
	last []T
	n    int // the values in full
}

const (
	firstPiece = 1 << 16
	pieceLen   = 1 << 20
)

func (p *pieces[T]) add(v T) {
	if len(p.last) == p.room() {
		p.full = append(p.full, p.last)
		p.n += len(p.last)
		p.last = hugeSlice[T](pieceLen)[:0]
	}
	if p.last == nil {
		p.last = make([]T, 0, firstPiece)
	}
	p.last = append(p.last, v)
}

// room is the most values the last piece takes before add starts another.
func (p *pieces[T]) room() int {
	if len(p.full) == 0 {
		return firstPiece
	}
	return pieceLen
}

// len is how many values were added.
func (p *pieces[T]) len() int { return p.n + len(p.last) }

// all is the pieces in order, each full but the last.
func (p *pieces[T]) all() [][]T { return append(p.full[:len(p.full):len(p.full)], p.last) }
