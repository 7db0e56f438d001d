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

// packedSumLanes: packedMatch.sum for blocks compared in at most 4 lanes
// (the common case: a group's synopsis rules out the other symmetries),
// a lane's form words across a vector of 8 forms rather than a form
// across 8 lanes. Each turn loads 8 forms, gathers their first and second
// words into two vectors (a permute each: 12-byte forms by bytes, 16-byte
// by words), and tests them against each active lane's mask and pattern,
// broadcast once into registers: four instructions a lane for 8 forms,
// and one test for all lanes. The turns where no form meets a lane,
// nearly all of them, take one branch. n is a multiple of 8; the forms
// are read whole and no further.
//
// c holds, for each of nl lanes (1 to 4), its byte swapped mask and
// pattern of the first and second words and its weight (laneConsts).

// LANE_CONSTS broadcasts lane constants at offset at of c (a laneConsts)
// into the lane's registers.
#define LANE_CONSTS(at, mask_hi, want_hi, mask_lo, want_lo) \
	VPBROADCASTQ at(DI), mask_hi; \
	VPBROADCASTQ at+8(DI), want_hi; \
	VPBROADCASTQ at+16(DI), mask_lo; \
	VPBROADCASTQ at+24(DI), want_lo

// LANE sets t to a lane's remainders for the 8 forms whose words are in
// Z2 and Z3 (hi is scratch): zero where a form meets its conditions.
#define LANE(mask_hi, want_hi, mask_lo, want_lo, hi, t) \
	VMOVDQA64 Z2, hi; \
	VPTERNLOGQ $0x28, mask_hi, want_hi, hi; \
	VPXORQ want_lo, Z3, t; \
	VPTERNLOGQ $0xEC, mask_lo, hi, t

// WEIGH adds to R8 the forms whose remainders in t are zero, times the
// weight at offset at of c.
#define WEIGH(t, at) \
	VPTESTNMQ t, t, K2; \
	KMOVW K2, AX; \
	POPCNTL AX, AX; \
	IMULQ at(DI), AX; \
	ADDQ AX, R8

// func packedSumLanes(forms *byte, n int, size int, c *laneConsts, nl int) (hits, matched int64)
TEXT ·packedSumLanes(SB), NOSPLIT, $0-56
	MOVQ forms+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ size+16(FP), DX
	MOVQ c+24(FP), DI
	MOVQ nl+32(FP), R12
	LANE_CONSTS(0, Z16, Z17, Z18, Z19)
	LANE_CONSTS(40, Z20, Z21, Z22, Z23)
	LANE_CONSTS(80, Z24, Z25, Z26, Z27)
	LANE_CONSTS(120, Z28, Z29, Z30, Z31)
	MOVQ $0x0F, AX
	KMOVW AX, K4          // the first 4 words of a vector: 32 bytes
	XORQ R8, R8
	XORQ R9, R9
	CMPQ DX, $12
	JEQ idx12
	VMOVDQU64 laneHi16<>(SB), Z14
	VMOVDQU64 laneLo16<>(SB), Z15
	JMP turn
idx12:
	VMOVDQU64 laneHi12<>(SB), Z14
	VMOVDQU64 laneLo12<>(SB), Z15

turn:
	CMPQ CX, $8
	JLT ldone
	CMPQ DX, $12
	JEQ load12
	// 8 forms of 16 bytes: 128 bytes, the words alternate.
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQA64 Z14, Z2
	VPERMI2Q Z1, Z0, Z2
	VMOVDQA64 Z15, Z3
	VPERMI2Q Z1, Z0, Z3
	JMP lanes
load12:
	// 8 forms of 12 bytes: 96 bytes, the last 32 loaded alone so that
	// nothing past the forms is read. A second word's last 4 bytes are
	// the next form's, cleared by its masks.
	VMOVDQU64 (SI), Z0
	VMOVDQU64.Z 64(SI), K4, Z1
	VMOVDQA64 Z14, Z2
	VPERMI2B Z1, Z0, Z2
	VMOVDQA64 Z15, Z3
	VPERMI2B Z1, Z0, Z3

lanes:
	// A lane's remainders: T = ((H ^ want_hi) & mask_hi) | ((L ^ want_lo)
	// & mask_lo), zero where a form meets the lane's conditions; the
	// lanes' least T is zero where a form meets one of them.
	LANE(Z16, Z17, Z18, Z19, Z6, Z10)
	CMPQ R12, $1
	JEQ one_lane
	LANE(Z20, Z21, Z22, Z23, Z7, Z11)
	VPMINUQ Z10, Z11, Z12
	CMPQ R12, $2
	JEQ tested
	LANE(Z24, Z25, Z26, Z27, Z8, Z13)
	VPMINUQ Z13, Z12, Z12
	CMPQ R12, $3
	JEQ tested
	LANE(Z28, Z29, Z30, Z31, Z9, Z5)
	VPMINUQ Z5, Z12, Z12
	JMP tested
one_lane:
	VMOVDQA64 Z10, Z12
tested:
	VPTESTNMQ Z12, Z12, K1
	KORTESTW K1, K1
	JNZ met
next:
	LEAQ (SI)(DX*8), SI
	SUBQ $8, CX
	JMP turn

met:
	// Some forms meet some lanes: each lane's forms times its weight.
	KMOVW K1, AX
	POPCNTL AX, AX
	ADDQ AX, R9
	WEIGH(Z10, 32)
	CMPQ R12, $1
	JEQ next
	WEIGH(Z11, 72)
	CMPQ R12, $2
	JEQ next
	WEIGH(Z13, 112)
	CMPQ R12, $3
	JEQ next
	WEIGH(Z5, 152)
	JMP next

ldone:
	VZEROUPPER
	MOVQ R8, hits+40(FP)
	MOVQ R9, matched+48(FP)
	RET

DATA laneHi16<>+0(SB)/8, $0x0000000000000000
DATA laneHi16<>+8(SB)/8, $0x0000000000000002
DATA laneHi16<>+16(SB)/8, $0x0000000000000004
DATA laneHi16<>+24(SB)/8, $0x0000000000000006
DATA laneHi16<>+32(SB)/8, $0x0000000000000008
DATA laneHi16<>+40(SB)/8, $0x000000000000000a
DATA laneHi16<>+48(SB)/8, $0x000000000000000c
DATA laneHi16<>+56(SB)/8, $0x000000000000000e
GLOBL laneHi16<>(SB), RODATA|NOPTR, $64
DATA laneLo16<>+0(SB)/8, $0x0000000000000001
DATA laneLo16<>+8(SB)/8, $0x0000000000000003
DATA laneLo16<>+16(SB)/8, $0x0000000000000005
DATA laneLo16<>+24(SB)/8, $0x0000000000000007
DATA laneLo16<>+32(SB)/8, $0x0000000000000009
DATA laneLo16<>+40(SB)/8, $0x000000000000000b
DATA laneLo16<>+48(SB)/8, $0x000000000000000d
DATA laneLo16<>+56(SB)/8, $0x000000000000000f
GLOBL laneLo16<>(SB), RODATA|NOPTR, $64
DATA laneHi12<>+0(SB)/8, $0x0706050403020100
DATA laneHi12<>+8(SB)/8, $0x131211100f0e0d0c
DATA laneHi12<>+16(SB)/8, $0x1f1e1d1c1b1a1918
DATA laneHi12<>+24(SB)/8, $0x2b2a292827262524
DATA laneHi12<>+32(SB)/8, $0x3736353433323130
DATA laneHi12<>+40(SB)/8, $0x434241403f3e3d3c
DATA laneHi12<>+48(SB)/8, $0x4f4e4d4c4b4a4948
DATA laneHi12<>+56(SB)/8, $0x5b5a595857565554
GLOBL laneHi12<>(SB), RODATA|NOPTR, $64
DATA laneLo12<>+0(SB)/8, $0x0f0e0d0c0b0a0908
DATA laneLo12<>+8(SB)/8, $0x1b1a191817161514
DATA laneLo12<>+16(SB)/8, $0x2726252423222120
DATA laneLo12<>+24(SB)/8, $0x333231302f2e2d2c
DATA laneLo12<>+32(SB)/8, $0x3f3e3d3c3b3a3938
DATA laneLo12<>+40(SB)/8, $0x4b4a494847464544
DATA laneLo12<>+48(SB)/8, $0x5756555453525150
DATA laneLo12<>+56(SB)/8, $0x636261605f5e5d5c
GLOBL laneLo12<>(SB), RODATA|NOPTR, $64
