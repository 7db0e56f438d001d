package checksum

import "golang.org/x/sys/cpu"

// haveLong: the loop needs AVX-512 F and DQ (VPMULLQ), and an operating
// system that keeps the ZMM registers (which cpu.X86 checks).
var haveLong = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// accumulate adds n bytes from p (n > 240) into acc as XXH3's long loop
// does, with the default secret at key: whole blocks of 16 stripes of 64
// bytes, each block followed by a scramble, then the stripes left and the
// last 64 bytes.
//
//go:noescape
func accumulate(acc *[8]uint64, p *byte, n int, key *byte)
