package enumerate

import (
	"slices"

	"golang.org/x/sys/cpu"
)

// vectorMatch tells whether the halves counter's loops run on vectors of
// 512 bits: they use AVX-512 with its bit count (VPOPCNTQ), byte and word
// instructions, and BMI2.
var vectorMatch = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ && cpu.X86.HasAVX512BW && cpu.X86.HasBMI2

// joinHalvesAVX512 is joinHalvesGo on 8 lower placements at a time, into
// dst (room for every pair and 8 keys more), with scratch room for twice
// the most lower placements a column set has, plus 16; it returns the
// number of keys written.
//
//go:noescape
func joinHalvesAVX512(dst *uint64, upMask, upKey, lowMask, lowKey *uint64, splits *int32, nSplits int, midKey uint64, scratch *uint64) int

// joinReadAhead is how many zeros must follow the splits given to
// joinHalves: the vector loop reads four splits ahead.
const joinReadAhead = 16

// joinHalves is joinHalvesGo, on vectors if vector; pairs is the number of
// pairs the splits hold.
func joinHalves(dst []uint64, b *halvesBlocks, splits []int32, pairs int64, midKey uint64, vector bool, scratch *[]uint64) []uint64 {
	if !vector || len(splits) == 0 {
		return joinHalvesGo(dst, b, splits, midKey)
	}
	if need := 2*b.lower.most + 16; len(*scratch) < need {
		*scratch = make([]uint64, need)
	}
	k := len(dst)
	dst = slices.Grow(dst, int(pairs)+8)
	kept := joinHalvesAVX512(&dst[:k+1][k], &b.upper.mask[0], &b.upper.key[0], &b.lower.mask[0], &b.lower.key[0], &splits[0], len(splits)/4, midKey, &(*scratch)[0])
	return dst[:k+kept]
}

// chunkTablesAVX512 is chunkTablesGo 512 bits at a time: rowBytes = 8*w,
// w a multiple of 8; first is the row of value 0, rowOf the bytes from
// notHave to each chunk bit's row.
//
//go:noescape
func chunkTablesAVX512(table, notHave, first *uint64, rowBytes, chunks, chunkBits int, rowOf *int)

// chunkTables is chunkTablesGo, on vectors if vector (lanes of 8 words).
func chunkTables(t *matchTable, notHave, valid []uint64, vector bool) {
	if !vector || t.laneWords != 8 {
		chunkTablesGo(t, notHave, valid)
		return
	}
	w := t.lanes * 8
	bits := t.chunks * t.chunkBits
	_ = t.words[t.chunks<<t.chunkBits*w-1]
	_ = valid[w-1]
	if len(t.rowOf) < bits {
		panic("chunkTables: a chunk bit without its row")
	}
	t.rowBytes = t.rowBytes[:0]
	for _, r := range t.rowOf[:bits] {
		_ = notHave[(r+1)*w-1]
		t.rowBytes = append(t.rowBytes, 8*w*r)
	}
	chunkTablesAVX512(&t.words[0], &notHave[0], &valid[0], 8*w, t.chunks, t.chunkBits, &t.rowBytes[0])
}

// orKeysAVX512 is orKeysGo 8 keys at a time.
//
//go:noescape
func orKeysAVX512(halves *uint64, n int) (all, clean uint64)

// orKeys is orKeysGo, on vectors if vector.
func orKeys(halves []uint64, vector bool) (all, clean uint64) {
	if !vector || len(halves) == 0 {
		return orKeysGo(halves)
	}
	return orKeysAVX512(&halves[0], len(halves))
}

// cleanTopsAVX512 is cleanTopsGo 8 halves at a time: each group has room
// for 8 keys more than halves.
//
//go:noescape
func cleanTopsAVX512(dst, halves *uint64, n, fieldBits int, field, cut1, cut2 uint64, room int) (groups [4]int)

// cleanTops is cleanTopsGo, on vectors if vector; room is at least 8 more
// than the halves.
func cleanTops(dst, halves []uint64, lay keyLayout, cuts [2]uint64, room int, vector bool) [4]int {
	if !vector || len(halves) == 0 {
		return cleanTopsGo(dst, halves, lay, cuts, room)
	}
	if room < len(halves)+8 {
		panic("cleanTops: no room")
	}
	if cuts[0] != 0 {
		_ = dst[4*room-1]
	} else {
		_ = dst[room-1]
	}
	return cleanTopsAVX512(&dst[0], &halves[0], len(halves), lay.fieldBits, lay.field, cuts[0], cuts[1], room)
}

// splitTopsAVX512 is splitTopsGo 8 tops at a time: each group has room for
// 8 more than the tops.
//
//go:noescape
func splitTopsAVX512(dst, tops *uint64, n int, cut1, cut2 uint64, room int) (groups [4]int)

// splitTops is splitTopsGo, on vectors if vector; room is at least 8 more
// than the tops.
func splitTops(dst, tops []uint64, cut1, cut2 uint64, room int, vector bool) [4]int {
	if !vector || len(tops) == 0 {
		return splitTopsGo(dst, tops, [2]uint64{cut1, cut2}, room)
	}
	if room < len(tops)+8 {
		panic("splitTops: no room")
	}
	_ = dst[4*room-1]
	return splitTopsAVX512(&dst[0], &tops[0], len(tops), cut1, cut2, room)
}

// topsBitsetsAVX512 is topsBitsetsGo 64 tops at a time, rowBytes = 8*w,
// the tops padded with zeros to a multiple of 64.
//
//go:noescape
func topsBitsetsAVX512(notHave *uint64, rowBytes, bytes int, tops *uint64, n int)

// topsBitsets is topsBitsetsGo, on vectors if vector: tops has zeros after
// its n keys up to a multiple of 64.
func topsBitsets(notHave []uint64, w, bytes int, tops []uint64, n int, vector bool) {
	if !vector || n == 0 {
		topsBitsetsGo(notHave, w, bytes, tops, n)
		return
	}
	_ = tops[(n+63)/64*64-1]
	_ = notHave[8*bytes*w-1]
	if (n+63)/64 > w || bytes < 1 {
		panic("topsBitsets: no room")
	}
	topsBitsetsAVX512(&notHave[0], 8*w, bytes, &tops[0], n)
}

// matchAVX512cCbB is matchBottomsGo with C chunks of B bits on 512 tops at
// a time: rowBytes = 64*lanes, cuts the mask of the cut bits in use,
// intervals the bytes from and to of each cut group's vectors in a row,
// live the key bits the chunks hold (packed, PEXTQ); at least one bottom.

//go:noescape
func matchAVX512c3b5(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c3b6(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c3b7(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c3b8(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c4b5(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c4b6(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c4b7(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c4b8(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c5b5(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c5b6(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c5b7(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c5b8(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c6b5(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c6b6(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c6b7(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c6b8(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c7b5(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c7b6(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c7b7(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c7b8(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c8b5(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c8b6(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c8b7(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

//go:noescape
func matchAVX512c8b8(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64

// matchAVX512 holds the loops by chunks (3 to 8) and chunk bits (5 to 8).
var matchAVX512 = [6][4]func(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64{
	{matchAVX512c3b5, matchAVX512c3b6, matchAVX512c3b7, matchAVX512c3b8},
	{matchAVX512c4b5, matchAVX512c4b6, matchAVX512c4b7, matchAVX512c4b8},
	{matchAVX512c5b5, matchAVX512c5b6, matchAVX512c5b7, matchAVX512c5b8},
	{matchAVX512c6b5, matchAVX512c6b6, matchAVX512c6b7, matchAVX512c6b8},
	{matchAVX512c7b5, matchAVX512c7b6, matchAVX512c7b7, matchAVX512c7b8},
	{matchAVX512c8b5, matchAVX512c8b6, matchAVX512c8b7, matchAVX512c8b8},
}

// vectorChunks are the numbers of chunks and of their bits the vector
// loops take.
const (
	minVectorChunks, maxVectorChunks = 3, 8
	minVectorBits, maxVectorBits     = 5, 8
)

// matchBottoms is matchBottomsGo, on vectors if vector (and the table has
// lanes of 8 words and chunks one of the loops takes).
func matchBottoms(t *matchTable, bottoms []uint64, vector bool) int64 {
	if !vector || len(bottoms) == 0 || t.laneWords != 8 || t.chunks < minVectorChunks || t.chunks > maxVectorChunks ||
		t.chunkBits < minVectorBits || t.chunkBits > maxVectorBits {
		return matchBottomsGo(t, bottoms)
	}
	rowBytes := 64 * t.lanes
	_ = t.words[t.chunks<<t.chunkBits*t.lanes*8-1] // every row the keys can name
	// In the table, not on the stack: passed to a function chosen at run
	// time, it would be allocated on the heap at each call.
	in := &t.byteIntervals
	for g, iv := range t.intervals {
		in[2*g], in[2*g+1] = 64*iv[0], 64*iv[1]
	}
	return matchAVX512[t.chunks-minVectorChunks][t.chunkBits-minVectorBits](&t.words[0], rowBytes, bottoms, t.cutMask, in, t.live)
}

// matchDirectAVX512 is matchDirectGo on 8 bottoms at a time: n a multiple
// of 8, k at least 1.
//
//go:noescape
func matchDirectAVX512(tops *uint64, k int, bottoms *uint64, n int) int64

// matchDirect is matchDirectGo, on vectors if vector.
func matchDirect(tops, bottoms []uint64, vector bool) int64 {
	eights := len(bottoms) &^ 7
	if !vector || len(tops) == 0 || eights == 0 {
		return matchDirectGo(tops, bottoms)
	}
	return matchDirectAVX512(&tops[0], len(tops), &bottoms[0], eights) + matchDirectGo(tops, bottoms[eights:])
}
