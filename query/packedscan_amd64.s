#include "textflag.h"

// packedSumAVX512: the masked compares of packedMatch.sum, the 8
// symmetries in the 8 lanes of a vector. The masks and patterns are byte
// swapped (packedVec), so each form's two words are compared as they lie
// in memory, little-endian: each is broadcast from memory into the lanes
// and XORed with their patterns, and the lanes where nothing is left under
// their masks (VPTESTNMQ) are the symmetries whose conditions the form
// meets. A form that meets some (rare) adds those lanes' weights to hits
// (R8) and 1 to matched (R9). A 12-byte form's second word takes 4 bytes
// of the next form, which its masks clear: the caller leaves the last form
// out.

// func packedSumAVX512(forms *byte, n int, size int, v *packedVec) (hits, matched int64)
TEXT ·packedSumAVX512(SB), NOSPLIT, $0-48
	MOVQ forms+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ size+16(FP), DX
	MOVQ v+24(FP), DI
	VMOVDQU64 0(DI), Z4   // masks of the first word
	VMOVDQU64 64(DI), Z5  // its patterns
	VMOVDQU64 128(DI), Z6 // masks of the second word
	VMOVDQU64 192(DI), Z7 // its patterns
	MOVQ 320(DI), AX      // the lanes in use
	KMOVW AX, K3
	XORQ R8, R8
	XORQ R9, R9
	TESTQ CX, CX
	JZ done

loop:
	VPXORQ.BCST (SI), Z5, Z0
	VPXORQ.BCST 8(SI), Z7, Z1
	VPTESTNMQ Z0, Z4, K3, K1
	VPTESTNMQ Z1, Z6, K1, K2
	KMOVW K2, AX
	TESTQ AX, AX
	JNZ hit
next:
	ADDQ DX, SI
	DECQ CX
	JNZ loop
	JMP done

hit:
	INCQ R9
weigh:
	BSFQ AX, BX
	ADDQ 256(DI)(BX*8), R8
	LEAQ -1(AX), BX
	ANDQ BX, AX
	JNZ weigh
	JMP next

done:
	VZEROUPPER
	MOVQ R8, hits+32(FP)
	MOVQ R9, matched+40(FP)
	RET
