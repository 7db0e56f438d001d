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
//
// Four forms are tested a turn, with one test and one branch for all four
// (the least of their lanes' remainders): almost no form meets the
// conditions, and in a turn where one does, each form's lanes are then
// read from its own remainders.

// func packedSumAVX512(forms *byte, n int, size int, v *packedVec, lanes uint64) (hits, matched int64)
TEXT ·packedSumAVX512(SB), NOSPLIT, $0-56
	MOVQ forms+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ size+16(FP), DX
	MOVQ v+24(FP), DI
	VMOVDQU64 0(DI), Z4   // masks of the first word
	VMOVDQU64 64(DI), Z5  // its patterns
	VMOVDQU64 128(DI), Z6 // masks of the second word
	VMOVDQU64 192(DI), Z7 // its patterns
	MOVQ lanes+32(FP), AX // the lanes to compare
	KMOVW AX, K3
	XORQ R8, R8
	XORQ R9, R9
	LEAQ (DX)(DX*2), R10  // 3 forms
	MOVQ DX, R11
	SHLQ $2, R11          // 4 forms

four:
	CMPQ CX, $4
	JLT tail
	// Each form's lanes: T = ((hi ^ want_hi) & mask_hi) | ((lo ^ want_lo)
	// & mask_lo), zero where the form meets the lane's conditions; the
	// lanes' least T of the four forms is zero where one of them does.
	VPBROADCASTQ (SI), Z0
	VPTERNLOGQ $0x28, Z4, Z5, Z0
	VPXORQ.BCST 8(SI), Z7, Z1
	VPTERNLOGQ $0xEC, Z6, Z0, Z1
	VPBROADCASTQ (SI)(DX*1), Z2
	VPTERNLOGQ $0x28, Z4, Z5, Z2
	VPXORQ.BCST 8(SI)(DX*1), Z7, Z3
	VPTERNLOGQ $0xEC, Z6, Z2, Z3
	VPBROADCASTQ (SI)(DX*2), Z8
	VPTERNLOGQ $0x28, Z4, Z5, Z8
	VPXORQ.BCST 8(SI)(DX*2), Z7, Z9
	VPTERNLOGQ $0xEC, Z6, Z8, Z9
	VPBROADCASTQ (SI)(R10*1), Z10
	VPTERNLOGQ $0x28, Z4, Z5, Z10
	VPXORQ.BCST 8(SI)(R10*1), Z7, Z11
	VPTERNLOGQ $0xEC, Z6, Z10, Z11
	VPMINUQ Z1, Z3, Z12
	VPMINUQ Z9, Z11, Z13
	VPMINUQ Z12, Z13, Z12
	VPTESTNMQ Z12, Z12, K3, K1
	KORTESTW K1, K1
	JNZ slow
	ADDQ R11, SI
	SUBQ $4, CX
	JMP four

slow:
	// Some of the four forms meet some lanes: each one's lanes, from its
	// remainders.
	VPTESTNMQ Z1, Z1, K3, K1
	KMOVW K1, AX
	TESTQ AX, AX
	JZ w0_done
	INCQ R9
w0:
	BSFQ AX, BX
	ADDQ 256(DI)(BX*8), R8
	LEAQ -1(AX), BX
	ANDQ BX, AX
	JNZ w0
w0_done:
	VPTESTNMQ Z3, Z3, K3, K1
	KMOVW K1, AX
	TESTQ AX, AX
	JZ w1_done
	INCQ R9
w1:
	BSFQ AX, BX
	ADDQ 256(DI)(BX*8), R8
	LEAQ -1(AX), BX
	ANDQ BX, AX
	JNZ w1
w1_done:
	VPTESTNMQ Z9, Z9, K3, K1
	KMOVW K1, AX
	TESTQ AX, AX
	JZ w2_done
	INCQ R9
w2:
	BSFQ AX, BX
	ADDQ 256(DI)(BX*8), R8
	LEAQ -1(AX), BX
	ANDQ BX, AX
	JNZ w2
w2_done:
	VPTESTNMQ Z11, Z11, K3, K1
	KMOVW K1, AX
	TESTQ AX, AX
	JZ w3_done
	INCQ R9
w3:
	BSFQ AX, BX
	ADDQ 256(DI)(BX*8), R8
	LEAQ -1(AX), BX
	ANDQ BX, AX
	JNZ w3
w3_done:
	ADDQ R11, SI
	SUBQ $4, CX
	JMP four

// The last forms, fewer than 4, one at a time.
one:
	VPXORQ.BCST (SI), Z5, Z0
	VPXORQ.BCST 8(SI), Z7, Z1
	VPTESTNMQ Z0, Z4, K3, K1
	VPTESTNMQ Z1, Z6, K1, K2
	KMOVW K2, AX
	TESTQ AX, AX
	JZ next
	INCQ R9
weigh:
	BSFQ AX, BX
	ADDQ 256(DI)(BX*8), R8
	LEAQ -1(AX), BX
	ANDQ BX, AX
	JNZ weigh
next:
	ADDQ DX, SI
	DECQ CX
	JNZ one
	JMP done

tail:
	TESTQ CX, CX
	JNZ one

done:
	VZEROUPPER
	MOVQ R8, hits+40(FP)
	MOVQ R9, matched+48(FP)
	RET

// packedHitsAVX512: the compares of packedSumAVX512, but each form that
// meets some lanes is written to out as its index (from 0) << 8 | its
// lanes, in order; it returns how many.

// func packedHitsAVX512(forms *byte, n int, size int, v *packedVec, lanes uint64, out *uint32) (count int)
TEXT ·packedHitsAVX512(SB), NOSPLIT, $0-56
	MOVQ forms+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ size+16(FP), DX
	MOVQ v+24(FP), DI
	VMOVDQU64 0(DI), Z4
	VMOVDQU64 64(DI), Z5
	VMOVDQU64 128(DI), Z6
	VMOVDQU64 192(DI), Z7
	MOVQ lanes+32(FP), AX
	KMOVW AX, K3
	MOVQ out+40(FP), R8
	XORQ R9, R9           // entries written
	XORQ R13, R13         // the index of the form at SI
	LEAQ (DX)(DX*2), R10
	MOVQ DX, R11
	SHLQ $2, R11

hfour:
	CMPQ CX, $4
	JLT htail
	VPBROADCASTQ (SI), Z0
	VPTERNLOGQ $0x28, Z4, Z5, Z0
	VPXORQ.BCST 8(SI), Z7, Z1
	VPTERNLOGQ $0xEC, Z6, Z0, Z1
	VPBROADCASTQ (SI)(DX*1), Z2
	VPTERNLOGQ $0x28, Z4, Z5, Z2
	VPXORQ.BCST 8(SI)(DX*1), Z7, Z3
	VPTERNLOGQ $0xEC, Z6, Z2, Z3
	VPBROADCASTQ (SI)(DX*2), Z8
	VPTERNLOGQ $0x28, Z4, Z5, Z8
	VPXORQ.BCST 8(SI)(DX*2), Z7, Z9
	VPTERNLOGQ $0xEC, Z6, Z8, Z9
	VPBROADCASTQ (SI)(R10*1), Z10
	VPTERNLOGQ $0x28, Z4, Z5, Z10
	VPXORQ.BCST 8(SI)(R10*1), Z7, Z11
	VPTERNLOGQ $0xEC, Z6, Z10, Z11
	VPMINUQ Z1, Z3, Z12
	VPMINUQ Z9, Z11, Z13
	VPMINUQ Z12, Z13, Z12
	VPTESTNMQ Z12, Z12, K3, K1
	KORTESTW K1, K1
	JNZ hslow
hnext4:
	ADDQ R11, SI
	ADDQ $4, R13
	SUBQ $4, CX
	JMP hfour

hslow:
	VPTESTNMQ Z1, Z1, K3, K1
	KMOVW K1, AX
	TESTQ AX, AX
	JZ h1
	MOVQ R13, BX
	SHLQ $8, BX
	ORQ AX, BX
	MOVL BX, (R8)(R9*4)
	INCQ R9
h1:
	VPTESTNMQ Z3, Z3, K3, K1
	KMOVW K1, AX
	TESTQ AX, AX
	JZ h2
	LEAQ 1(R13), BX
	SHLQ $8, BX
	ORQ AX, BX
	MOVL BX, (R8)(R9*4)
	INCQ R9
h2:
	VPTESTNMQ Z9, Z9, K3, K1
	KMOVW K1, AX
	TESTQ AX, AX
	JZ h3
	LEAQ 2(R13), BX
	SHLQ $8, BX
	ORQ AX, BX
	MOVL BX, (R8)(R9*4)
	INCQ R9
h3:
	VPTESTNMQ Z11, Z11, K3, K1
	KMOVW K1, AX
	TESTQ AX, AX
	JZ hnext4
	LEAQ 3(R13), BX
	SHLQ $8, BX
	ORQ AX, BX
	MOVL BX, (R8)(R9*4)
	INCQ R9
	JMP hnext4

htail:
	TESTQ CX, CX
	JZ hdone
hone:
	VPXORQ.BCST (SI), Z5, Z0
	VPXORQ.BCST 8(SI), Z7, Z1
	VPTESTNMQ Z0, Z4, K3, K1
	VPTESTNMQ Z1, Z6, K1, K2
	KMOVW K2, AX
	TESTQ AX, AX
	JZ hnext
	MOVQ R13, BX
	SHLQ $8, BX
	ORQ AX, BX
	MOVL BX, (R8)(R9*4)
	INCQ R9
hnext:
	ADDQ DX, SI
	INCQ R13
	DECQ CX
	JNZ hone

hdone:
	VZEROUPPER
	MOVQ R9, count+48(FP)
	RET
