#include "textflag.h"

// The halves counter's loops on vectors of 512 bits (see queens_halves.go).

// The row of chunk c of a key (in DX) with chunks of b bits: table (SI) +
// (c<<b + (key>>(b*c) & (1<<b-1))) * rowBytes (R8), into reg.
#define ROW(reg, shift, mask, first) \
	MOVQ DX, reg; \
	SHRQ $shift, reg; \
	ANDQ $mask, reg; \
	ADDQ $first, reg; \
	IMULQ R8, reg; \
	ADDQ SI, reg

// The rows of the first 3 to 8 chunks, in BX, CX, R10, ..., R15.
#define ROWS3(b, mask) \
	ROW(BX, 0, mask, 0); \
	ROW(CX, b, mask, 1<<b); \
	ROW(R10, 2*b, mask, 2<<b)
#define ROWS4(b, mask) ROWS3(b, mask); ROW(R11, 3*b, mask, 3<<b)
#define ROWS5(b, mask) ROWS4(b, mask); ROW(R12, 4*b, mask, 4<<b)
#define ROWS6(b, mask) ROWS5(b, mask); ROW(R13, 5*b, mask, 5<<b)
#define ROWS7(b, mask) ROWS6(b, mask); ROW(R14, 6*b, mask, 6<<b)
#define ROWS8(b, mask) ROWS7(b, mask); ROW(R15, 7*b, mask, 7<<b)

// The AND of the rows' 64 bytes at offset AX, into Z0.
#define ANDS3 \
	VMOVDQU64 (BX)(AX*1), Z0; \
	VPANDQ (CX)(AX*1), Z0, Z0; \
	VPANDQ (R10)(AX*1), Z0, Z0
#define ANDS4 ANDS3; VPANDQ (R11)(AX*1), Z0, Z0
#define ANDS5 ANDS4; VPANDQ (R12)(AX*1), Z0, Z0
#define ANDS6 ANDS5; VPANDQ (R13)(AX*1), Z0, Z0
#define ANDS7 ANDS6; VPANDQ (R14)(AX*1), Z0, Z0
#define ANDS8 ANDS7; VPANDQ (R15)(AX*1), Z0, Z0

// SUM8 adds up the 8 quadwords of zreg (whose low half is yreg) into
// reg, with Y3 and X4 for scratch.
#define SUM8(zreg, yreg, reg) \
	VEXTRACTI64X4 $1, zreg, Y3; \
	VPADDQ Y3, yreg, Y3; \
	VEXTRACTI128 $1, Y3, X4; \
	VPADDQ X4, X3, X3; \
	VPSHUFD $0x4e, X3, X4; \
	VPADDQ X4, X3, X3; \
	VMOVQ X3, reg

// MATCH is the body of the matchAVX512 loops: for each bottom's key, the
// bytes of its rows its cut group's tops lie in (from and to,
// intervals[group]: the group its key's cut bits pick, PEXTQ), its live
// bits packed (PEXTQ) and their chunks' rows, the rows ANDed 64 bytes at a
// time, their bits counted, and the count shifted left by the key's top
// two bits (kept in X2); returns the sum. The 16 intervals are copied to
// 0(SP).
#define MATCH(rows, ands) \
	MOVQ table+0(FP), SI; \
	MOVQ rowBytes+8(FP), R8; \
	MOVQ bottoms_base+16(FP), DI; \
	MOVQ bottoms_len+24(FP), R9; \
	MOVQ intervals+48(FP), AX; \
	VMOVDQU64 (AX), Z0; \
	VMOVDQU64 Z0, 0(SP); \
	VMOVDQU64 64(AX), Z0; \
	VMOVDQU64 Z0, 64(SP); \
	VMOVDQU64 128(AX), Z0; \
	VMOVDQU64 Z0, 128(SP); \
	VMOVDQU64 192(AX), Z0; \
	VMOVDQU64 Z0, 192(SP); \
	VPXORQ Z5, Z5, Z5; \
bottom: \
	MOVQ (DI), DX; \
	MOVQ DX, AX; \
	SHRQ $62, AX; \
	VMOVQ AX, X2; \
	PEXTQ cuts+40(FP), DX, AX; \
	SHLQ $4, AX; \
	VMOVQ AX, X6; \
	PEXTQ live+56(FP), DX, DX; \
	rows; \
	VMOVQ X6, AX; \
	MOVQ 8(SP)(AX*1), DX; \
	MOVQ 0(SP)(AX*1), AX; \
	CMPQ AX, DX; \
	JAE next; \
	VPXORQ Z1, Z1, Z1; \
word: \
	ands; \
	VPOPCNTQ Z0, Z0; \
	VPADDQ Z0, Z1, Z1; \
	ADDQ $64, AX; \
	CMPQ AX, DX; \
	JB word; \
	VPSLLQ X2, Z1, Z1; \
	VPADDQ Z1, Z5, Z5; \
next: \
	ADDQ $8, DI; \
	DECQ R9; \
	JNZ bottom; \
	SUM8(Z5, Y5, AX); \
	VZEROUPPER; \
	MOVQ AX, ret+64(FP); \
	RET

// func matchAVX512c3b5(table *uint64, rowBytes int, bottoms []uint64, cuts uint64, intervals *[32]int, live uint64) int64, and so on:
// 3 to 8 chunks of 5 to 8 bits.
TEXT ·matchAVX512c3b5(SB), NOSPLIT, $256-72
	MATCH(ROWS3(5, 31), ANDS3)
TEXT ·matchAVX512c3b6(SB), NOSPLIT, $256-72
	MATCH(ROWS3(6, 63), ANDS3)
TEXT ·matchAVX512c3b7(SB), NOSPLIT, $256-72
	MATCH(ROWS3(7, 127), ANDS3)
TEXT ·matchAVX512c3b8(SB), NOSPLIT, $256-72
	MATCH(ROWS3(8, 255), ANDS3)
TEXT ·matchAVX512c4b5(SB), NOSPLIT, $256-72
	MATCH(ROWS4(5, 31), ANDS4)
TEXT ·matchAVX512c4b6(SB), NOSPLIT, $256-72
	MATCH(ROWS4(6, 63), ANDS4)
TEXT ·matchAVX512c4b7(SB), NOSPLIT, $256-72
	MATCH(ROWS4(7, 127), ANDS4)
TEXT ·matchAVX512c4b8(SB), NOSPLIT, $256-72
	MATCH(ROWS4(8, 255), ANDS4)
TEXT ·matchAVX512c5b5(SB), NOSPLIT, $256-72
	MATCH(ROWS5(5, 31), ANDS5)
TEXT ·matchAVX512c5b6(SB), NOSPLIT, $256-72
	MATCH(ROWS5(6, 63), ANDS5)
TEXT ·matchAVX512c5b7(SB), NOSPLIT, $256-72
	MATCH(ROWS5(7, 127), ANDS5)
TEXT ·matchAVX512c5b8(SB), NOSPLIT, $256-72
	MATCH(ROWS5(8, 255), ANDS5)
TEXT ·matchAVX512c6b5(SB), NOSPLIT, $256-72
	MATCH(ROWS6(5, 31), ANDS6)
TEXT ·matchAVX512c6b6(SB), NOSPLIT, $256-72
	MATCH(ROWS6(6, 63), ANDS6)
TEXT ·matchAVX512c6b7(SB), NOSPLIT, $256-72
	MATCH(ROWS6(7, 127), ANDS6)
TEXT ·matchAVX512c6b8(SB), NOSPLIT, $256-72
	MATCH(ROWS6(8, 255), ANDS6)
TEXT ·matchAVX512c7b5(SB), NOSPLIT, $256-72
	MATCH(ROWS7(5, 31), ANDS7)
TEXT ·matchAVX512c7b6(SB), NOSPLIT, $256-72
	MATCH(ROWS7(6, 63), ANDS7)
TEXT ·matchAVX512c7b7(SB), NOSPLIT, $256-72
	MATCH(ROWS7(7, 127), ANDS7)
TEXT ·matchAVX512c7b8(SB), NOSPLIT, $256-72
	MATCH(ROWS7(8, 255), ANDS7)
TEXT ·matchAVX512c8b5(SB), NOSPLIT, $256-72
	MATCH(ROWS8(5, 31), ANDS8)
TEXT ·matchAVX512c8b6(SB), NOSPLIT, $256-72
	MATCH(ROWS8(6, 63), ANDS8)
TEXT ·matchAVX512c8b7(SB), NOSPLIT, $256-72
	MATCH(ROWS8(7, 127), ANDS8)
TEXT ·matchAVX512c8b8(SB), NOSPLIT, $256-72
	MATCH(ROWS8(8, 255), ANDS8)

// func joinHalvesAVX512(dst *uint64, upMask, upKey, lowMask, lowKey *uint64, splits *int32, nSplits int, midKey uint64, scratch *uint64) int
//
// joinHalvesGo on 8 lower placements at a time: for each split (from and
// to of its upper and of its lower placements), for each upper placement
// not met by midKey, the lower ones whose masks share no bit with its mask
// and whose keys do not meet midKey, their keys added to its key and
// packed (VPCOMPRESSQ) to dst. Each store writes 8 words whatever it keeps:
// dst has room for 8 more than it can keep. With a midKey, the lower
// placements it does not meet are first packed to scratch (their masks,
// then their keys 8 words plus the most a column set has further on).
// Returns the number kept.
TEXT ·joinHalvesAVX512(SB), NOSPLIT, $16-80
	MOVQ dst+0(FP), DI
	MOVQ DI, ret+72(FP)
	MOVQ upMask+8(FP), SI
	MOVQ upKey+16(FP), R8
	MOVQ splits+40(FP), R15
	MOVQ nSplits+48(FP), AX
	SHLQ $4, AX
	ADDQ R15, AX
	MOVQ AX, nSplits+48(FP) // now the end of splits
	MOVQ midKey+56(FP), R13
	VPBROADCASTQ R13, Z7

split:
	CMPQ R15, nSplits+48(FP)
	JAE done
	MOVLQSX 0(R15), DX
	MOVLQSX 4(R15), R9
	MOVLQSX 8(R15), AX
	MOVLQSX 12(R15), R12
	ADDQ $16, R15
	SUBQ AX, R12
	MOVQ lowMask+24(FP), R10
	LEAQ (R10)(AX*8), R10
	MOVQ lowKey+32(FP), R11
	LEAQ (R11)(AX*8), R11
	// Prefetch the lower placements of the fourth split from this one, up
	// to 256 of them (most lie in memory, not in a cache: a nearer split's
	// would not arrive in time), and the first of its upper ones: splits
	// ends with four more of zeros.
	MOVLQSX 56(R15), AX
	MOVLQSX 60(R15), R14
	SUBQ AX, R14
	MOVQ $256, CX
	CMPQ R14, CX
	CMOVQGT CX, R14
	MOVQ lowMask+24(FP), CX
	LEAQ (CX)(AX*8), CX
	MOVQ lowKey+32(FP), BX
	LEAQ (BX)(AX*8), BX
prefetch:
	PREFETCHT0 (CX)
	PREFETCHT0 (BX)
	ADDQ $64, CX
	ADDQ $64, BX
	SUBQ $8, R14
	JG prefetch
	MOVLQSX 48(R15), AX
	PREFETCHT0 (SI)(AX*8)
	PREFETCHT0 (R8)(AX*8)
	TESTQ R13, R13
	JZ lanes

	// Pack the lower placements midKey does not meet to scratch: masks
	// at CX, keys at BX (the scratch's second half).
	MOVQ scratch+64(FP), CX
	MOVQ R12, BX
	ADDQ $8, BX
	LEAQ (CX)(BX*8), BX
	MOVQ CX, 0(SP)
	MOVQ BX, 8(SP)
	XORQ R14, R14
pack:
	// K7: the lanes left, up to 8.
	MOVQ R12, AX
	SUBQ R14, AX
	MOVQ $8, R9
	CMPQ AX, R9
	CMOVQGT R9, AX // BZHIQ takes the low byte of its count
	MOVQ $-1, R9
	BZHIQ AX, R9, AX
	KMOVQ AX, K7
	VMOVDQU64.Z (R11)(R14*8), K7, Z4
	VPTESTNMQ Z4, Z7, K7, K2
	VMOVDQU64.Z (R10)(R14*8), K7, Z3
	VPCOMPRESSQ Z3, K2, Z5
	VMOVDQU64 Z5, (CX)
	VPCOMPRESSQ Z4, K2, Z6
	VMOVDQU64 Z6, (BX)
	KMOVQ K2, AX
	POPCNTQ AX, AX
	LEAQ (CX)(AX*8), CX
	LEAQ (BX)(AX*8), BX
	ADDQ $8, R14
	CMPQ R14, R12
	JB pack
	MOVQ 0(SP), R10
	MOVQ 8(SP), R11
	MOVQ CX, R12
	SUBQ R10, R12
	SHRQ $3, R12
	MOVLQSX -12(R15), R9 // the end of the upper placements again

lanes:
	// K7: the lanes of the last, partial vector of lower placements.
	MOVQ R12, CX
	ANDQ $7, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVQ AX, K7
	MOVQ R12, BX
	ANDQ $-8, BX

upper:
	CMPQ DX, R9
	JAE split
	MOVQ (R8)(DX*8), AX
	TESTQ R13, AX
	JNZ next
	VPBROADCASTQ AX, Z2
	MOVQ (SI)(DX*8), AX
	VPBROADCASTQ AX, Z1
	XORQ R14, R14
	CMPQ R14, BX
	JAE tail

full:
	VPTESTNMQ (R10)(R14*8), Z1, K2
	VPADDQ (R11)(R14*8), Z2, Z5
	VPCOMPRESSQ Z5, K2, Z6
	VMOVDQU64 Z6, (DI)
	KMOVQ K2, AX
	POPCNTQ AX, AX
	LEAQ (DI)(AX*8), DI
	ADDQ $8, R14
	CMPQ R14, BX
	JB full

tail:
	CMPQ R14, R12
	JAE next
	VMOVDQU64.Z (R10)(R14*8), K7, Z3
	VPTESTNMQ Z3, Z1, K7, K2
	VMOVDQU64.Z (R11)(R14*8), K7, Z4
	VPADDQ Z4, Z2, Z5
	VPCOMPRESSQ Z5, K2, Z6
	VMOVDQU64 Z6, (DI)
	KMOVQ K2, AX
	POPCNTQ AX, AX
	LEAQ (DI)(AX*8), DI

next:
	INCQ DX
	JMP upper

done:
	MOVQ ret+72(FP), AX
	SUBQ AX, DI
	SHRQ $3, DI
	MOVQ DI, ret+72(FP)
	VZEROUPPER
	RET

// func chunkTablesAVX512(table, notHave, first *uint64, rowBytes, chunks, chunkBits int, rowOf *int)
//
// chunkTablesGo 64 bytes at a time: first is the row of value 0, rowOf
// the bytes from notHave to the row of each chunk bit.
TEXT ·chunkTablesAVX512(SB), NOSPLIT, $0-56
	MOVQ table+0(FP), DI
	MOVQ notHave+8(FP), SI
	MOVQ rowBytes+24(FP), R8
	MOVQ chunks+32(FP), R9
	MOVQ chunkBits+40(FP), CX
	MOVQ rowOf+48(FP), R11 // the chunk's first bit's
	MOVQ $1, R10
	SHLQ CX, R10 // values

chunk:
	// The row of value 0.
	MOVQ first+16(FP), AX
	XORQ DX, DX
copyfirst:
	VMOVDQU64 (AX)(DX*1), Z0
	VMOVDQU64 Z0, (DI)(DX*1)
	ADDQ $64, DX
	CMPQ DX, R8
	JB copyfirst
	MOVQ $1, R12 // value

value:
	// prev: the row of value&(value-1); bit: the notHave row of the
	// chunk's bit TZCNT(value); dst: the row of value.
	LEAQ -1(R12), AX
	ANDQ R12, AX
	IMULQ R8, AX
	ADDQ DI, AX
	TZCNTQ R12, BX
	MOVQ (R11)(BX*8), BX
	ADDQ SI, BX
	MOVQ R12, R13
	IMULQ R8, R13
	ADDQ DI, R13
	XORQ DX, DX
row:
	VMOVDQU64 (AX)(DX*1), Z0
	VPANDQ (BX)(DX*1), Z0, Z0
	VMOVDQU64 Z0, (R13)(DX*1)
	ADDQ $64, DX
	CMPQ DX, R8
	JB row
	INCQ R12
	CMPQ R12, R10
	JB value

	// The next chunk: its table after this one, its bits after these.
	MOVQ R10, AX
	IMULQ R8, AX
	ADDQ AX, DI
	LEAQ (R11)(CX*8), R11
	DECQ R9
	JNZ chunk
	VZEROUPPER
	RET

// func orKeysAVX512(halves *uint64, n int) (all, clean uint64)
//
// The OR of the n keys, and of those with no queen on a long diagonal,
// 8 at a time.
TEXT ·orKeysAVX512(SB), NOSPLIT, $0-32
	MOVQ halves+0(FP), SI
	MOVQ n+8(FP), R9
	MOVQ $0xc000000000000000, AX
	VPBROADCASTQ AX, Z10
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	MOVQ $-1, R11
	XORQ R8, R8
or:
	CMPQ R8, R9
	JAE ored
	MOVQ R9, AX
	SUBQ R8, AX
	MOVQ $8, CX
	CMPQ AX, CX
	CMOVQGT CX, AX // BZHIQ takes the low byte of its count
	BZHIQ AX, R11, AX
	KMOVQ AX, K7
	VMOVDQU64.Z (SI)(R8*8), K7, Z0
	VPORQ Z0, Z1, Z1
	VPTESTNMQ Z10, Z0, K7, K1
	VPORQ Z0, Z2, K1, Z2
	ADDQ $8, R8
	JMP or
ored:
	VEXTRACTI64X4 $1, Z1, Y3
	VPORQ Y3, Y1, Y3
	VEXTRACTI128 $1, Y3, X4
	VPORQ X4, X3, X3
	VPSHUFD $0x4e, X3, X4
	VPORQ X4, X3, X3
	VMOVQ X3, all+16(FP)
	VEXTRACTI64X4 $1, Z2, Y3
	VPORQ Y3, Y2, Y3
	VEXTRACTI128 $1, Y3, X4
	VPORQ X4, X3, X3
	VPSHUFD $0x4e, X3, X4
	VPORQ X4, X3, X3
	VMOVQ X3, clean+24(FP)
	VZEROUPPER
	RET

// func cleanTopsAVX512(dst, halves *uint64, n, fieldBits int, field, cut1, cut2 uint64, room int) (groups [4]int)
//
// The keys as tops (the two fields swapped) of the n halves with no queen
// on a long diagonal, 8 halves at a time, packed to dst by their cut
// group: the tops with neither cut bit, with cut1 only, with cut2 only,
// with both, each group room keys further on (room: 8 more than n); all
// in the first if cut1 is 0. Returns the size of each group.
TEXT ·cleanTopsAVX512(SB), NOSPLIT, $0-96
	MOVQ dst+0(FP), DI
	MOVQ room+56(FP), AX
	SHLQ $3, AX
	LEAQ (DI)(AX*1), R12
	LEAQ (R12)(AX*1), R13
	LEAQ (R13)(AX*1), R14
	MOVQ DI, R10
	MOVQ halves+8(FP), SI
	MOVQ n+16(FP), R9
	MOVQ fieldBits+24(FP), AX
	VMOVQ AX, X8
	VPBROADCASTQ field+32(FP), Z9
	MOVQ $0xc000000000000000, AX
	VPBROADCASTQ AX, Z10
	VPBROADCASTQ cut1+40(FP), Z11
	VPBROADCASTQ cut2+48(FP), Z12
	MOVQ cut1+40(FP), R15
	MOVQ $-1, R11
	XORQ R8, R8

clean:
	CMPQ R8, R9
	JAE cleaned
	MOVQ R9, AX
	SUBQ R8, AX
	MOVQ $8, CX
	CMPQ AX, CX
	CMOVQGT CX, AX // BZHIQ takes the low byte of its count
	BZHIQ AX, R11, AX
	KMOVQ AX, K7
	VMOVDQU64.Z (SI)(R8*8), K7, Z0
	VPTESTNMQ Z10, Z0, K7, K1
	VPSRLQ X8, Z0, Z1
	VPANDQ Z9, Z1, Z1
	VPANDQ Z9, Z0, Z2
	VPSLLQ X8, Z2, Z2
	VPORQ Z2, Z1, Z1
	TESTQ R15, R15
	JNZ groups
	// No cut bits: one group.
	VPCOMPRESSQ Z1, K1, Z3
	VMOVDQU64 Z3, (DI)
	KMOVQ K1, AX
	POPCNTQ AX, AX
	LEAQ (DI)(AX*8), DI
	ADDQ $8, R8
	JMP clean

groups:
	// K2: with cut1, K3: with cut2; K4..K6 and K1: the four groups.
	VPTESTMQ Z11, Z1, K1, K2
	VPTESTMQ Z12, Z1, K1, K3
	KANDNQ K1, K2, K4
	KANDNQ K4, K3, K4 // neither
	KANDNQ K2, K3, K5 // cut1 only
	KANDNQ K3, K2, K6 // cut2 only
	KANDQ K2, K3, K1  // both
	VPCOMPRESSQ Z1, K4, Z3
	VMOVDQU64 Z3, (DI)
	KMOVQ K4, AX
	POPCNTQ AX, AX
	LEAQ (DI)(AX*8), DI
	VPCOMPRESSQ Z1, K5, Z3
	VMOVDQU64 Z3, (R12)
	KMOVQ K5, AX
	POPCNTQ AX, AX
	LEAQ (R12)(AX*8), R12
	VPCOMPRESSQ Z1, K6, Z3
	VMOVDQU64 Z3, (R13)
	KMOVQ K6, AX
	POPCNTQ AX, AX
	LEAQ (R13)(AX*8), R13
	VPCOMPRESSQ Z1, K1, Z3
	VMOVDQU64 Z3, (R14)
	KMOVQ K1, AX
	POPCNTQ AX, AX
	LEAQ (R14)(AX*8), R14
	ADDQ $8, R8
	JMP clean

cleaned:
	MOVQ room+56(FP), AX
	SHLQ $3, AX
	SUBQ R10, DI
	SHRQ $3, DI
	MOVQ DI, groups_0+64(FP)
	ADDQ AX, R10
	SUBQ R10, R12
	SHRQ $3, R12
	MOVQ R12, groups_1+72(FP)
	ADDQ AX, R10
	SUBQ R10, R13
	SHRQ $3, R13
	MOVQ R13, groups_2+80(FP)
	ADDQ AX, R10
	SUBQ R10, R14
	SHRQ $3, R14
	MOVQ R14, groups_3+88(FP)
	VZEROUPPER
	RET

// func topsBitsetsAVX512(notHave *uint64, rowBytes, bytes int, tops *uint64, n int)
//
// The bitsets of the tops without each key bit, 64 tops at a time, for the
// key bits of the first bytes bytes: row p of notHave (rowBytes long) gets
// the tops without bit p. tops holds n keys and zeros up to a multiple of
// 64. Each byte of the 64 keys is gathered into a vector of 64 bytes
// (VPMOVQB), whose bits are taken from the top down (VPMOVB2M), the bytes
// doubled in between.
TEXT ·topsBitsetsAVX512(SB), NOSPLIT, $64-40
	MOVQ notHave+0(FP), DI
	MOVQ rowBytes+8(FP), R8
	MOVQ tops+24(FP), SI
	MOVQ n+32(FP), R9
	MOVQ $-1, R11

block:
	// valid (R12): the tops of this block.
	MOVQ R9, AX
	MOVQ $64, CX
	CMPQ AX, CX
	CMOVQGT CX, AX // BZHIQ takes the low byte of its count
	BZHIQ AX, R11, R12
	VMOVDQU64 0(SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2
	VMOVDQU64 192(SI), Z3
	VMOVDQU64 256(SI), Z4
	VMOVDQU64 320(SI), Z5
	VMOVDQU64 384(SI), Z6
	VMOVDQU64 448(SI), Z7
	// R13: the row of bit 7 of the byte; R14: bytes left.
	LEAQ (R8)(R8*2), R13
	LEAQ (R8)(R13*2), R13
	ADDQ DI, R13
	MOVQ bytes+16(FP), R14

byte:
	VPMOVQB Z0, 0(SP)
	VPMOVQB Z1, 8(SP)
	VPMOVQB Z2, 16(SP)
	VPMOVQB Z3, 24(SP)
	VPMOVQB Z4, 32(SP)
	VPMOVQB Z5, 40(SP)
	VPMOVQB Z6, 48(SP)
	VPMOVQB Z7, 56(SP)
	VMOVDQU64 0(SP), Z8
	VPSRLQ $8, Z0, Z0
	VPSRLQ $8, Z1, Z1
	VPSRLQ $8, Z2, Z2
	VPSRLQ $8, Z3, Z3
	VPSRLQ $8, Z4, Z4
	VPSRLQ $8, Z5, Z5
	VPSRLQ $8, Z6, Z6
	VPSRLQ $8, Z7, Z7
	MOVQ R13, BX
	MOVQ $8, CX

bit:
	VPMOVB2M Z8, K1
	KMOVQ K1, AX
	ANDNQ R12, AX, AX
	MOVQ AX, (BX)
	VPADDB Z8, Z8, Z8
	SUBQ R8, BX
	DECQ CX
	JNZ bit
	LEAQ (R13)(R8*8), R13
	DECQ R14
	JNZ byte

	ADDQ $8, DI
	ADDQ $512, SI
	SUBQ $64, R9
	JG block
	VZEROUPPER
	RET

// func splitTopsAVX512(dst, tops *uint64, n int, cut1, cut2 uint64, room int) (groups [4]int)
//
// splitTopsGo 8 tops at a time: each group has room for 8 more than n.
TEXT ·splitTopsAVX512(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), DI
	MOVQ room+40(FP), AX
	SHLQ $3, AX
	LEAQ (DI)(AX*1), R12
	LEAQ (R12)(AX*1), R13
	LEAQ (R13)(AX*1), R14
	MOVQ DI, R10
	MOVQ tops+8(FP), SI
	MOVQ n+16(FP), R9
	VPBROADCASTQ cut1+24(FP), Z11
	VPBROADCASTQ cut2+32(FP), Z12
	MOVQ $-1, R11
	XORQ R8, R8

split:
	CMPQ R8, R9
	JAE splitted
	MOVQ R9, AX
	SUBQ R8, AX
	MOVQ $8, CX
	CMPQ AX, CX
	CMOVQGT CX, AX // BZHIQ takes the low byte of its count
	BZHIQ AX, R11, AX
	KMOVQ AX, K1
	VMOVDQU64.Z (SI)(R8*8), K1, Z1
	VPTESTMQ Z11, Z1, K1, K2
	VPTESTMQ Z12, Z1, K1, K3
	KANDNQ K1, K2, K4
	KANDNQ K4, K3, K4 // neither
	KANDNQ K2, K3, K5 // cut1 only
	KANDNQ K3, K2, K6 // cut2 only
	KANDQ K2, K3, K1  // both
	VPCOMPRESSQ Z1, K4, Z3
	VMOVDQU64 Z3, (DI)
	KMOVQ K4, AX
	POPCNTQ AX, AX
	LEAQ (DI)(AX*8), DI
	VPCOMPRESSQ Z1, K5, Z3
	VMOVDQU64 Z3, (R12)
	KMOVQ K5, AX
	POPCNTQ AX, AX
	LEAQ (R12)(AX*8), R12
	VPCOMPRESSQ Z1, K6, Z3
	VMOVDQU64 Z3, (R13)
	KMOVQ K6, AX
	POPCNTQ AX, AX
	LEAQ (R13)(AX*8), R13
	VPCOMPRESSQ Z1, K1, Z3
	VMOVDQU64 Z3, (R14)
	KMOVQ K1, AX
	POPCNTQ AX, AX
	LEAQ (R14)(AX*8), R14
	ADDQ $8, R8
	JMP split

splitted:
	MOVQ room+40(FP), AX
	SHLQ $3, AX
	SUBQ R10, DI
	SHRQ $3, DI
	MOVQ DI, groups_0+48(FP)
	ADDQ AX, R10
	SUBQ R10, R12
	SHRQ $3, R12
	MOVQ R12, groups_1+56(FP)
	ADDQ AX, R10
	SUBQ R10, R13
	SHRQ $3, R13
	MOVQ R13, groups_2+64(FP)
	ADDQ AX, R10
	SUBQ R10, R14
	SHRQ $3, R14
	MOVQ R14, groups_3+72(FP)
	VZEROUPPER
	RET

// func matchDirectAVX512(tops *uint64, k int, bottoms *uint64, n int) int64
//
// matchDirectGo on 8 bottoms at a time (n a multiple of 8, k at least 1):
// each top broadcast and tested against the 8 (VPTESTNMQ), a lane's count
// raised by one where they share no bit, the counts shifted left by the
// bottoms' top two bits at the end of the k tops.
TEXT ·matchDirectAVX512(SB), NOSPLIT, $0-40
	MOVQ tops+0(FP), SI
	MOVQ k+8(FP), CX
	MOVQ bottoms+16(FP), DI
	MOVQ n+24(FP), R9
	VPXORQ Z5, Z5, Z5
	MOVQ $1, AX
	VPBROADCASTQ AX, Z4

eight:
	VMOVDQU64 (DI), Z1
	VPSRLQ $62, Z1, Z2
	VPXORQ Z0, Z0, Z0
	VPXORQ Z3, Z3, Z3
	MOVQ SI, R10
	MOVQ CX, R11
	SHRQ $1, R11
	JZ odd

pair:
	VPTESTNMQ.BCST (R10), Z1, K1
	VPTESTNMQ.BCST 8(R10), Z1, K2
	VPADDQ Z4, Z0, K1, Z0
	VPADDQ Z4, Z3, K2, Z3
	ADDQ $16, R10
	DECQ R11
	JNZ pair

odd:
	TESTQ $1, CX
	JZ counted
	VPTESTNMQ.BCST (R10), Z1, K1
	VPADDQ Z4, Z0, K1, Z0

counted:
	VPADDQ Z3, Z0, Z0
	VPSLLVQ Z2, Z0, Z0
	VPADDQ Z0, Z5, Z5
	ADDQ $64, DI
	SUBQ $8, R9
	JNZ eight

	SUM8(Z5, Y5, AX)
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET
