package checksum

import (
	"encoding/binary"

	"golang.org/x/sys/cpu"
)

// haveLong: the loop needs AVX-512 F and DQ (VPMULLQ), and an operating
// system that keeps the ZMM registers (which cpu.X86 checks).
var haveLong = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// initAcc is XXH3's starting accumulators; mergeKeys the secret's words
// from byte 11 on, which the accumulators are mixed with as they are
// merged. hashLong reads both (and secret) where they lie.
var (
	initAcc   = [8]uint64{prime32_3, prime64_1, prime64_2, prime64_3, prime64_4, prime32_2, prime64_5, prime32_1}
	mergeKeys = func() (k [8]uint64) {
		for i := range k {
			k[i] = binary.LittleEndian.Uint64(secret[11+8*i:])
		}
		return k
	}()
)

// hashLong is XXH3-64 of the n bytes from p (n > 240): its long loop
// (whole blocks of 16 stripes of 64 bytes, each block followed by a
// scramble, then the stripes left and the last 64 bytes), the merge of
// the accumulators and the final mix, all in registers.
//
//go:noescape
func hashLong(p *byte, n int) uint64
