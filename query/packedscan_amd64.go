package query

import "golang.org/x/sys/cpu"

// packedVector tells whether packed forms are compared 8 symmetries at a
// time, on vectors of 512 bits (AVX-512).
var packedVector = cpu.X86.HasAVX512F

// packedSumAVX512 is packedMatch.sum over n forms of size 12 or 16 bytes,
// comparing the lanes set in lanes.
//
//go:noescape
func packedSumAVX512(forms *byte, n int, size int, v *packedVec, lanes uint64) (hits, matched int64)

// packedHitsAVX512 writes to out (n entries at least) each of the n forms
// of size 12 or 16 bytes that meets some of the lanes set in lanes, as its
// index << 8 | its lanes, and returns how many it wrote.
//
//go:noescape
func packedHitsAVX512(forms *byte, n int, size int, v *packedVec, lanes uint64, out *uint32) (count int)

// packedLanes tells whether blocks compared in few lanes are compared by
// packedSumLanes (it permutes 12-byte forms by bytes: AVX-512 VBMI).
var packedLanes = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VBMI

// packedSumLanes is packedMatch.sum over n forms (a multiple of 8) of size
// 12 or 16 bytes, in the nl (1 to 4) lanes of c.
//
//go:noescape
func packedSumLanes(forms *byte, n int, size int, c *laneConsts, nl int) (hits, matched int64)
