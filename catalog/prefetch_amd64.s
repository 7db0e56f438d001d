#include "textflag.h"

// func prefetchPage(p *byte)
TEXT ·prefetchPage(SB), NOSPLIT, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	PREFETCHT0 1024(AX)
	PREFETCHT0 2048(AX)
	PREFETCHT0 3072(AX)
	RET
