#include "textflag.h"

// The row of chunk c of a key (in DX) with chunks of b bits: table (SI) +
// (c<<b + (key>>(b*c) & (1<<b-1))) * rowBytes (R8), into reg.
#define ROW(reg, shift, mask, first) \
	MOVQ DX, reg; \
	SHRQ $shift, reg; \
	ANDQ $mask, reg; \
	ADDQ $first, reg; \
	IMULQ R8, reg; \
	ADDQ SI, reg

// MATCH is the body of matchBottomsAVX512x5 and x6: for each bottom's key,
// the table rows of its 7 chunks of b bits ANDed 64 bytes at a time, their
// bits counted and the count shifted left by the key's top two bits;
// returns the sum.
#define MATCH(b, mask) \
	MOVQ table+0(FP), SI; \
	MOVQ rowBytes+8(FP), R8; \
	MOVQ bottoms_base+16(FP), DI; \
	MOVQ bottoms_len+24(FP), R9; \
	VPXORQ Z5, Z5, Z5; \
bottom: \
	MOVQ (DI), DX; \
	ROW(BX, 0, mask, 0); \
	ROW(CX, b, mask, 1<<b); \
	ROW(R10, 2*b, mask, 2<<b); \
	ROW(R11, 3*b, mask, 3<<b); \
	ROW(R12, 4*b, mask, 4<<b); \
	ROW(R13, 5*b, mask, 5<<b); \
	ROW(R14, 6*b, mask, 6<<b); \
	XORQ AX, AX; \
	VPXORQ Z1, Z1, Z1; \
word: \
	VMOVDQU64 (BX)(AX*1), Z0; \
	VPANDQ (CX)(AX*1), Z0, Z0; \
	VPANDQ (R10)(AX*1), Z0, Z0; \
	VPANDQ (R11)(AX*1), Z0, Z0; \
	VPANDQ (R12)(AX*1), Z0, Z0; \
	VPANDQ (R13)(AX*1), Z0, Z0; \
	VPANDQ (R14)(AX*1), Z0, Z0; \
	VPOPCNTQ Z0, Z0; \
	VPADDQ Z0, Z1, Z1; \
	ADDQ $64, AX; \
	CMPQ AX, R8; \
	JB word; \
	SHRQ $62, DX; \
	VMOVQ DX, X2; \
	VPSLLQ X2, Z1, Z1; \
	VPADDQ Z1, Z5, Z5; \
	ADDQ $8, DI; \
	DECQ R9; \
	JNZ bottom; \
	VEXTRACTI64X4 $1, Z5, Y3; \
	VPADDQ Y3, Y5, Y3; \
	VEXTRACTI128 $1, Y3, X4; \
	VPADDQ X4, X3, X3; \
	VPSHUFD $0x4e, X3, X4; \
	VPADDQ X4, X3, X3; \
	VMOVQ X3, AX; \
	VZEROUPPER; \
	MOVQ AX, ret+40(FP); \
	RET

// func matchBottomsAVX512x5(table *uint64, rowBytes int, bottoms []uint64) int64
TEXT ·matchBottomsAVX512x5(SB), NOSPLIT, $0-48
	MATCH(5, 31)

// func matchBottomsAVX512x6(table *uint64, rowBytes int, bottoms []uint64) int64
TEXT ·matchBottomsAVX512x6(SB), NOSPLIT, $0-48
	MATCH(6, 63)
