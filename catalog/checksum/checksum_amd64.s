#include "textflag.h"

// STRIPE adds one 64-byte stripe at off(SI), keyed by key, into sum: each
// 64-bit lane i gets lo32(d^k)*hi32(d^k) of its own lane and the data of
// lane i^1 (VPSHUFD $0x4e swaps the two halves of each 128-bit lane).
#define STRIPE(off, key, sum) \
	VMOVDQU64 off(SI), Z5; \
	VPXORQ    key, Z5, Z6; \
	VPSRLQ    $32, Z6, Z7; \
	VPMULUDQ  Z7, Z6, Z6; \
	VPSHUFD   $0x4e, Z5, Z5; \
	VPADDQ    Z5, Z6, Z6; \
	VPADDQ    Z6, sum, sum

// func hashLong(p *byte, n int) uint64
TEXT ·hashLong(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), BX
	LEAQ ·secret(SB), DX
	VMOVDQU64 ·initAcc(SB), Z0

	// The keys of the 16 stripes of a block (the secret from 8·s), the
	// scramble's (from 128) and the last stripe's (from 121).
	VMOVDQU64 0(DX), Z16
	VMOVDQU64 8(DX), Z17
	VMOVDQU64 16(DX), Z18
	VMOVDQU64 24(DX), Z19
	VMOVDQU64 32(DX), Z20
	VMOVDQU64 40(DX), Z21
	VMOVDQU64 48(DX), Z22
	VMOVDQU64 56(DX), Z23
	VMOVDQU64 64(DX), Z24
	VMOVDQU64 72(DX), Z25
	VMOVDQU64 80(DX), Z26
	VMOVDQU64 88(DX), Z27
	VMOVDQU64 96(DX), Z28
	VMOVDQU64 104(DX), Z29
	VMOVDQU64 112(DX), Z30
	VMOVDQU64 120(DX), Z31
	VMOVDQU64 128(DX), Z15
	VMOVDQU64 121(DX), Z13
	MOVQ         $2654435761, R8
	VPBROADCASTQ R8, Z14

	// Whole blocks of 1024 bytes: (n-1)/1024 of them.
	LEAQ -1(BX), CX
	MOVQ CX, R9
	SHRQ $10, CX
	JZ   tail

block:
	// Four independent sums, so that the stripes need not wait for each
	// other's additions.
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	STRIPE(0, Z16, Z1)
	STRIPE(64, Z17, Z2)
	STRIPE(128, Z18, Z3)
	STRIPE(192, Z19, Z4)
	STRIPE(256, Z20, Z1)
	STRIPE(320, Z21, Z2)
	STRIPE(384, Z22, Z3)
	STRIPE(448, Z23, Z4)
	STRIPE(512, Z24, Z1)
	STRIPE(576, Z25, Z2)
	STRIPE(640, Z26, Z3)
	STRIPE(704, Z27, Z4)
	STRIPE(768, Z28, Z1)
	STRIPE(832, Z29, Z2)
	STRIPE(896, Z30, Z3)
	STRIPE(960, Z31, Z4)
	VPADDQ Z2, Z1, Z1
	VPADDQ Z4, Z3, Z3
	VPADDQ Z3, Z1, Z1
	VPADDQ Z1, Z0, Z0

	// Scramble: acc = (acc ^ acc>>47 ^ key) * prime32_1.
	VPSRLQ  $47, Z0, Z1
	VPXORQ  Z1, Z0, Z0
	VPXORQ  Z15, Z0, Z0
	VPMULLQ Z14, Z0, Z0
	ADDQ    $1024, SI
	DECQ    CX
	JNZ     block

tail:
	// The whole stripes left before the last byte, ((n-1) mod 1024)/64 of
	// them (at most 15), keyed as a block's first stripes are.
	ANDQ   $1023, R9
	SHRQ   $6, R9
	JZ     last
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	STRIPE(0, Z16, Z1)
	CMPQ   R9, $2
	JLT    sums
	STRIPE(64, Z17, Z2)
	CMPQ   R9, $3
	JLT    sums
	STRIPE(128, Z18, Z3)
	CMPQ   R9, $4
	JLT    sums
	STRIPE(192, Z19, Z4)
	CMPQ   R9, $5
	JLT    sums
	STRIPE(256, Z20, Z1)
	CMPQ   R9, $6
	JLT    sums
	STRIPE(320, Z21, Z2)
	CMPQ   R9, $7
	JLT    sums
	STRIPE(384, Z22, Z3)
	CMPQ   R9, $8
	JLT    sums
	STRIPE(448, Z23, Z4)
	CMPQ   R9, $9
	JLT    sums
	STRIPE(512, Z24, Z1)
	CMPQ   R9, $10
	JLT    sums
	STRIPE(576, Z25, Z2)
	CMPQ   R9, $11
	JLT    sums
	STRIPE(640, Z26, Z3)
	CMPQ   R9, $12
	JLT    sums
	STRIPE(704, Z27, Z4)
	CMPQ   R9, $13
	JLT    sums
	STRIPE(768, Z28, Z1)
	CMPQ   R9, $14
	JLT    sums
	STRIPE(832, Z29, Z2)
	CMPQ   R9, $15
	JLT    sums
	STRIPE(896, Z30, Z3)

sums:
	VPADDQ Z2, Z1, Z1
	VPADDQ Z4, Z3, Z3
	VPADDQ Z3, Z1, Z1
	VPADDQ Z1, Z0, Z0

last:
	// The last 64 bytes, keyed from 121.
	MOVQ p+0(FP), SI
	LEAQ -64(SI)(BX*1), SI
	STRIPE(0, Z13, Z0)

	// Merge: h = n·prime64_1 + the sum, over the pairs of accumulators
	// (each mixed with its key), of the high and low halves of their
	// product XORed; then the final mix.
	VPXORQ        ·mergeKeys(SB), Z0, Z0
	VMOVQ         X0, R8
	VPEXTRQ       $1, X0, R9
	VEXTRACTI64X2 $1, Z0, X1
	VMOVQ         X1, R10
	VPEXTRQ       $1, X1, R11
	VEXTRACTI64X2 $2, Z0, X2
	VMOVQ         X2, R12
	VPEXTRQ       $1, X2, R13
	VEXTRACTI64X2 $3, Z0, X3
	VMOVQ         X3, CX
	VPEXTRQ       $1, X3, DI
	VZEROUPPER
	MOVQ  $11400714785074694791, SI
	IMULQ BX, SI
	MOVQ  R8, AX
	MULQ  R9
	XORQ  DX, AX
	ADDQ  AX, SI
	MOVQ  R10, AX
	MULQ  R11
	XORQ  DX, AX
	ADDQ  AX, SI
	MOVQ  R12, AX
	MULQ  R13
	XORQ  DX, AX
	ADDQ  AX, SI
	MOVQ  CX, AX
	MULQ  DI
	XORQ  DX, AX
	ADDQ  AX, SI
	MOVQ  SI, AX
	SHRQ  $37, AX
	XORQ  AX, SI
	MOVQ  $0x165667919e3779f9, AX
	IMULQ AX, SI
	MOVQ  SI, AX
	SHRQ  $32, AX
	XORQ  SI, AX
	MOVQ  AX, ret+16(FP)
	RET
