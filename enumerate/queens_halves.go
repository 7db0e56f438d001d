package enumerate

import (
	"math/bits"
	"slices"
)

// The halves counter counts the solutions of queens:n for even n. Like the
// join counter it cuts the board into a top half (rows 0..h-1, h = n/2) and
// a bottom half and, for each set D of h columns, pairs the tops on D with
// the bottoms on the other columns; but it does not search the bottoms
// against the tops. It lists both and counts the pairs that do not attack
// each other with bit-parallel table lookups, many tops at once:
//
//   - A half matters to the other only through where its queens' diagonals
//     cross the boundary between them: a key of 2n-2 bits (down-right and
//     down-left crossings of a top, up-left and up-right of a bottom, in
//     the same places, so that a top and a bottom attack each other exactly
//     when their keys share a bit).
//   - The tops of D become the bits of bitsets, one bitset per key bit: the
//     tops that do not have it. The key bits are cut into chunks of 5, and
//     for each chunk and each of its 32 values the bitset of the tops that
//     have none of the value's bits is worked out once per D. A bottom's
//     tops are then the AND of one bitset per chunk: 7 of them on queens:18,
//     whatever the number of its queens.
//   - Symmetry: the tops have no queen on either long diagonal of the board,
//     and a bottom with k queens on them stands for 2^k solutions: the
//     transposes about both diagonals move such a queen from one half to the
//     other and leave the rest of the board's halves as they are. With the
//     left-right mirror (a set D and its mirror image) that makes up to 8
//     solutions per pair matched.
//
// The AND-and-count loop is the counter's work; on amd64 with AVX-512 it
// runs on 512 tops at a time (matchBottoms), else word by word.

// HalvesCounterApplies tells whether count-only builds of queens:n use the
// halves counter: for even n from 6 to 20, on a CPU with the 512-bit
// vector instructions its inner loop is written for (without them the
// join counter is faster). Sampled on queens:22, it was about as fast as
// the join counter, whose tops and bottoms it does not prune: the pairs it
// matches grow faster.
func HalvesCounterApplies(n int) bool {
	return vectorMatch && n%2 == 0 && n >= 6 && n <= 20
}

// queensHalvesUnits lists the work units of the halves counter for
// queens:n: the column sets no larger than their mirror image, cut into
// units as the join counter's are.
func queensHalvesUnits(n int) []JoinUnit {
	h := n / 2
	all := uint32(1)<<n - 1
	var keys []JoinKey
	for d := uint32(1)<<h - 1; d <= all; {
		if d <= reverseBits(d, n) {
			keys = append(keys, JoinKey{-1, d})
		}
		low := d & -d
		next := d + low
		d = next | (next^d)/low>>2
	}
	return joinUnits(n, keys, true)
}

// countUnit counts the solutions the unit's column sets stand for, and
// the pairs of blocks and the bottoms it tested.
func (m *halvesMatcher) countUnit(u JoinUnit) (solutions, nodes int64) {
	m.nodes = 0
	for _, k := range u.Keys {
		weight := int64(2) // the set and its mirror image
		if k.D == reverseBits(k.D, m.n) {
			weight = 1
		}
		solutions += m.count(k.D, weight)
	}
	return solutions, m.nodes
}

// A halfPair is the top and bottom blocks a half of h rows is made of: an
// upper block of h/2 rows on a lower one.
type halfPair struct {
	upper, lower *rowBlocks
	// By placement, as the blocks list them: the upper block's masks below
	// it (rowBlocks.below) and the lower one's above it, each with its part
	// of a half's key (see halfKey), side by side in memory.
	uppers, lowers []halfPart
}

// A halfPart is a block placement's mask and its part of a half's key.
type halfPart struct{ mask, key uint64 }

// halvesBlocks are the blocks of the halves counter of queens:n: the tops'
// blocks keep off the long diagonals, the bottoms' do not.
type halvesBlocks struct {
	tops, bottoms halfPair
}

func newHalvesBlocks(n int) *halvesBlocks {
	h := n / 2
	up, low := h/2, h-h/2
	b := &halvesBlocks{
		tops:    halfPair{upper: newRowBlocksOff(n, up, 0), lower: newRowBlocksOff(n, low, up)},
		bottoms: halfPair{upper: newRowBlocks(n, up), lower: newRowBlocks(n, low)},
	}
	// A bottom is listed as the top it becomes when the board is turned
	// upside down: row r of the top is row n-1-r of the bottom, and the
	// queens on the long diagonals are the same. A bottom's key carries
	// them in bits 62-63.
	for _, pair := range []*halfPair{&b.tops, &b.bottoms} {
		bottom := pair == &b.bottoms
		parts := func(blocks *rowBlocks, from, shift int, masks []uint64) []halfPart {
			all := uint32(1)<<n - 1
			out := make([]halfPart, blocks.placements())
			for p, below := range blocks.below {
				key := halfKey(n, uint32(below)<<shift&all, uint32(below>>32)>>shift, bottom)
				if bottom {
					key += uint64(onLongDiagonals(blocks.cols[p*blocks.k:(p+1)*blocks.k], from, n)) << 62
				}
				out[p] = halfPart{masks[p], key}
			}
			return out
		}
		// The upper block's crossings are shifted down to row h.
		pair.uppers = parts(pair.upper, 0, pair.lower.k, pair.upper.below)
		pair.lowers = parts(pair.lower, up, 0, pair.lower.above)
	}
	return b
}

// halfKey is the key of a half whose queens' diagonals cross row h at l
// (down-right) and r (down-left): as a top, or as a bottom turned upside
// down. Down-right crossings are never at 0 nor down-left ones at n-1, so
// n-1 bits of each are enough. Turned upside down, a down-left crossing at
// c is an up-left one at c+1 and a down-right crossing at c an up-right one
// at c-1. The keys of two parts of a half with no queen attacking another
// have no bit in common, so the half's key is their sum (weights included).
func halfKey(n int, l, r uint32, bottom bool) uint64 {
	half := uint64(1)<<(n-1) - 1
	if bottom {
		return uint64(r)&half | uint64(l)>>1<<(n-1)
	}
	return uint64(l)>>1 | (uint64(r)&half)<<(n-1)
}

// The keys are looked up in matchChunks chunks.
const matchChunks = 7

// chunkBits is the number of key bits a chunk holds for queens:n: 5 up to
// queens:18 (keys of 34 bits), 6 up to queens:22 (42 bits); 0 beyond.
func chunkBits(n int) int {
	for b := 5; b <= 6; b++ {
		if 2*n-2 <= matchChunks*b {
			return b
		}
	}
	return 0
}

// halvesMatcher holds one worker's buffers.
type halvesMatcher struct {
	n      int
	all    uint32
	blocks *halvesBlocks

	tops, bottoms []uint64 // keys; a bottom's weight (queens on long diagonals) in bits 62-63
	words         int      // 64-bit words per bitset of tops, a multiple of 8
	notHave       []uint64 // by key bit: the tops without it
	table         []uint64 // by chunk and value: the tops with none of its bits
	nodes         int64
	chunkBits     int
	match         func(table []uint64, w, chunkBits int, bottoms []uint64) int64 // matchBottoms
}

func newHalvesMatcher(n int, blocks *halvesBlocks) *halvesMatcher {
	return &halvesMatcher{n: n, all: uint32(1)<<n - 1, blocks: blocks, chunkBits: chunkBits(n), match: matchBottoms}
}

// count counts the solutions whose top half is on the columns d, with
// weight: 2 for a set that stands for its mirror image too, else 1.
func (m *halvesMatcher) count(d uint32, weight int64) int64 {
	m.tops = m.halves(m.tops[:0], &m.blocks.tops, d)
	if len(m.tops) == 0 {
		return 0
	}
	m.bottoms = m.halves(m.bottoms[:0], &m.blocks.bottoms, m.all^d)
	if len(m.bottoms) == 0 {
		return 0
	}
	m.buildTable()
	m.nodes += int64(len(m.bottoms))
	return weight * m.match(m.table, m.words, m.chunkBits, m.bottoms)
}

// halves appends the keys of the placements of rows 0..h-1 on exactly the
// columns d made of the pair's blocks: for each way to cut d into the
// columns of the upper block and those of the lower one, the pairs of
// their placements that do not attack each other. As bottoms (turned
// upside down), with their weights.
func (m *halvesMatcher) halves(dst []uint64, pair *halfPair, d uint32) []uint64 {
	up, low := pair.upper, pair.lower
	var pairs int64
	for q := d; ; q = (q - 1) & d {
		if bits.OnesCount32(q) == up.k {
			uFrom, uTo := up.on(q)
			lFrom, lTo := low.on(d ^ q)
			lowers := pair.lowers[lFrom:lTo]
			for _, u := range pair.uppers[uFrom:uTo] {
				pairs += int64(len(lowers))
				k := len(dst)
				dst = slices.Grow(dst, len(lowers))[:k+len(lowers)]
				// Write every pair, keep those that join: no branch to
				// mispredict.
				for _, l := range lowers {
					dst[k] = u.key + l.key
					x := u.mask & l.mask
					k += int((x|-x)>>63) ^ 1
				}
				dst = dst[:k]
			}
		}
		if q == 0 {
			break
		}
	}
	m.nodes += pairs
	return dst
}

// buildTable works out, for each chunk of key bits and each value of it,
// the bitset of the tops that have none of the value's bits.
func (m *halvesMatcher) buildTable() {
	keyBits := 2*m.n - 2
	w := (len(m.tops) + 511) / 512 * 8
	m.words = w
	cb, values := m.chunkBits, 1<<m.chunkBits
	m.notHave = slices.Grow(m.notHave[:0], matchChunks*cb*w)[:matchChunks*cb*w]
	var block [64]uint64
	for word := 0; word < w; word++ {
		block = [64]uint64{}
		from := min(len(m.tops), word*64)
		to := min(len(m.tops), from+64)
		for i, key := range m.tops[from:to] {
			block[i] = key
		}
		transpose64(&block)
		valid := validWord(len(m.tops), word)
		for b := 0; b < keyBits; b++ {
			m.notHave[b*w+word] = ^block[b] & valid
		}
		for b := keyBits; b < matchChunks*cb; b++ {
			m.notHave[b*w+word] = valid // no key has these bits
		}
	}
	size := matchChunks * values * w
	m.table = slices.Grow(m.table[:0], size)[:size]
	for ch := range matchChunks {
		t := m.table[ch*values*w : (ch+1)*values*w]
		for i := range w { // value 0: every top
			t[i] = validWord(len(m.tops), i)
		}
		for v := 1; v < values; v++ {
			prev := t[(v&(v-1))*w : (v&(v-1))*w+w]
			row := m.notHave[(ch*cb+bits.TrailingZeros(uint(v)))*w:]
			dst := t[v*w : v*w+w]
			for i := range dst {
				dst[i] = prev[i] & row[i]
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

// matchBottomsGo counts, over the bottoms' keys, the tops each leaves
// (the AND of one table row per chunk of chunkBits bits: w words each),
// each count times 2 to the power of the bottom's weight.
func matchBottomsGo(table []uint64, w, chunkBits int, bottoms []uint64) int64 {
	var total int64
	var rows [matchChunks][]uint64
	mask := uint64(1)<<chunkBits - 1
	for _, key := range bottoms {
		for ch := range rows {
			row := ch<<chunkBits + int(key>>(chunkBits*ch)&mask)
			rows[ch] = table[row*w : (row+1)*w]
		}
		count := 0
		for i := range w {
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
