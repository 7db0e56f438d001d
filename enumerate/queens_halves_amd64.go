package enumerate

import "golang.org/x/sys/cpu"

// matchBottomsAVX512x5 and x6 are matchBottomsGo on 512 tops at a time,
// for chunks of 5 and 6 bits: w a multiple of 8, rowBytes = 8*w, at least
// one bottom.
//
//go:noescape
func matchBottomsAVX512x5(table *uint64, rowBytes int, bottoms []uint64) int64

//go:noescape
func matchBottomsAVX512x6(table *uint64, rowBytes int, bottoms []uint64) int64

// vectorMatch tells whether matchBottoms runs on vectors of 512 bits.
var vectorMatch = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ

// matchBottoms is matchBottomsGo, on vectors where the CPU has them.
func matchBottoms(table []uint64, w, chunkBits int, bottoms []uint64) int64 {
	if !vectorMatch || len(bottoms) == 0 || w%8 != 0 {
		return matchBottomsGo(table, w, chunkBits, bottoms)
	}
	_ = table[matchChunks<<chunkBits*w-1] // every row the keys can name
	switch chunkBits {
	case 5:
		return matchBottomsAVX512x5(&table[0], 8*w, bottoms)
	case 6:
		return matchBottomsAVX512x6(&table[0], 8*w, bottoms)
	}
	return matchBottomsGo(table, w, chunkBits, bottoms)
}
