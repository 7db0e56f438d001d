package enumerate

import (
	"slices"

	"golang.org/x/sys/cpu"
)

// vectorMatch tells whether the halves counter's loops run on vectors of
// 512 bits.
var vectorMatch = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ

// joinHalvesAVX512 is joinHalvesGo on 8 lower placements at a time, into
// dst (room for every pair and 8 keys more), with scratch room for twice
// the most lower placements a column set has, plus 16; it returns the
// number of keys written.
//
//go:noescape
func joinHalvesAVX512(dst *uint64, upMask, upKey, lowMask, lowKey *uint64, splits *int32, nSplits int, midKey uint64, scratch *uint64) int

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

// chunkTablesAVX512 is chunkTablesGo 512 bits at a time: rowBytes = 8*w, w
// a multiple of 8; first is the row of value 0.
//
//go:noescape
func chunkTablesAVX512(table, notHave, first *uint64, rowBytes, chunks, chunkBits int)

// chunkTables is chunkTablesGo, on vectors if vector.
func chunkTables(table, notHave []uint64, tops, w, chunks, chunkBits int, vector bool) {
	if !vector || w%8 != 0 {
		chunkTablesGo(table, notHave, tops, w, chunks, chunkBits)
		return
	}
	_ = table[chunks<<chunkBits*w-1]
	_ = notHave[chunks*chunkBits*w-1]
	first := table[:w] // overwritten first thing by itself
	for i := range first {
		first[i] = validWord(tops, i)
	}
	chunkTablesAVX512(&table[0], &notHave[0], &first[0], 8*w, chunks, chunkBits)
}

// cleanTopsAVX512 is cleanTopsGo 8 halves at a time: dst has room for 8
// keys more than halves.
//
//go:noescape
func cleanTopsAVX512(dst, halves *uint64, n, fieldBits int, field uint64) int

// cleanTops is cleanTopsGo, on vectors if vector.
func cleanTops(dst, halves []uint64, lay keyLayout, vector bool) int {
	if !vector || len(halves) == 0 {
		return cleanTopsGo(dst, halves, lay)
	}
	_ = dst[len(halves)+7]
	return cleanTopsAVX512(&dst[0], &halves[0], len(halves), lay.fieldBits, lay.field)
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
// a time: w a multiple of 8, rowBytes = 8*w, at least one bottom.

//go:noescape
func matchAVX512c5b5(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c6b5(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c7b5(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c8b5(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c5b6(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c6b6(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c7b6(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c8b6(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c5b7(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c6b7(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c7b7(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchAVX512c8b7(table *uint64, rowBytes int, bottoms []uint64) int64

// matchAVX512 holds the loops by chunks (5 to 8) and chunk bits (5 to 7).
var matchAVX512 = [4][3]func(table *uint64, rowBytes int, bottoms []uint64) int64{
	{matchAVX512c5b5, matchAVX512c5b6, matchAVX512c5b7},
	{matchAVX512c6b5, matchAVX512c6b6, matchAVX512c6b7},
	{matchAVX512c7b5, matchAVX512c7b6, matchAVX512c7b7},
	{matchAVX512c8b5, matchAVX512c8b6, matchAVX512c8b7},
}

// matchBottoms is matchBottomsGo, on vectors if vector (and the table fits
// one of their loops).
func matchBottoms(table []uint64, w, chunks, chunkBits int, bottoms []uint64, vector bool) int64 {
	if !vector || len(bottoms) == 0 || w%8 != 0 || chunks < 5 || chunks > 8 || chunkBits < 5 || chunkBits > 7 {
		return matchBottomsGo(table, w, chunks, chunkBits, bottoms)
	}
	_ = table[chunks<<chunkBits*w-1] // every row the keys can name
	return matchAVX512[chunks-5][chunkBits-5](&table[0], 8*w, bottoms)
}
