#include "textflag.h"

// func Int80Socket(domain, typ, proto int32) int64
// The compat entry clears r8-r15 on return, so the ones Go cares about are
// saved in the frame.
TEXT ·Int80Socket(SB),NOSPLIT,$32-24
	MOVQ	R12, 0(SP)
	MOVQ	R13, 8(SP)
	MOVQ	R14, 16(SP)
	MOVQ	R15, 24(SP)
	MOVL	$359, AX
	MOVL	domain+0(FP), BX
	MOVL	typ+4(FP), CX
	MOVL	proto+8(FP), DX
	INT	$0x80
	MOVLQSX	AX, AX
	MOVQ	0(SP), R12
	MOVQ	8(SP), R13
	MOVQ	16(SP), R14
	MOVQ	24(SP), R15
	MOVQ	AX, ret+16(FP)
	RET
