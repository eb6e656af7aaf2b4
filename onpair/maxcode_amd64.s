//go:build amd64 && !purego

#include "textflag.h"

// func maxCodeAVX2(s []uint16) uint16
//
// The largest element of s (0 for an empty s): VPMAXUW over four 32-byte
// accumulators (64 codes an iteration), then 16 codes at a time, then the
// last 16 codes once more with an overlapping load (max is idempotent),
// so only a slice shorter than 16 takes the scalar loop.
TEXT ·maxCodeAVX2(SB), NOSPLIT, $0-26
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	XORL AX, AX
	CMPQ CX, $16
	JB   scalar
	LEAQ -32(SI)(CX*2), DI // the last 16 codes
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	CMPQ CX, $64
	JB   loop16

loop64:
	VPMAXUW (SI), Y0, Y0
	VPMAXUW 32(SI), Y1, Y1
	VPMAXUW 64(SI), Y2, Y2
	VPMAXUW 96(SI), Y3, Y3
	ADDQ    $128, SI
	SUBQ    $64, CX
	CMPQ    CX, $64
	JAE     loop64
	VPMAXUW Y1, Y0, Y0
	VPMAXUW Y3, Y2, Y2
	VPMAXUW Y2, Y0, Y0

loop16:
	CMPQ    CX, $16
	JB      last
	VPMAXUW (SI), Y0, Y0
	ADDQ    $32, SI
	SUBQ    $16, CX
	JMP     loop16

last:
	VPMAXUW      (DI), Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPMAXUW      X1, X0, X0
	// max = ^min(^x): PHMINPOSUW finds the minimum of eight words.
	VPCMPEQW     X1, X1, X1
	VPXOR        X1, X0, X0
	VPHMINPOSUW  X0, X0
	VMOVD        X0, AX
	NOTL         AX
	ANDL         $0xffff, AX
	VZEROUPPER
	MOVW         AX, ret+24(FP)
	RET

scalar:
	TESTQ    CX, CX
	JZ       done
	MOVWLZX  (SI), DX
	CMPL     DX, AX
	CMOVLHI  DX, AX
	ADDQ     $2, SI
	DECQ     CX
	JMP      scalar

done:
	MOVW AX, ret+24(FP)
	RET

// func maxCodeSSE41(s []uint16) uint16
//
// maxCodeAVX2 with 16-byte registers (PMAXUW and PHMINPOSUW are SSE4.1):
// four accumulators of 8 codes, 32 codes an iteration.
TEXT ·maxCodeSSE41(SB), NOSPLIT, $0-26
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	XORL AX, AX
	CMPQ CX, $8
	JB   scalar
	LEAQ -16(SI)(CX*2), DI // the last 8 codes
	PXOR X0, X0
	PXOR X1, X1
	PXOR X2, X2
	PXOR X3, X3
	CMPQ CX, $32
	JB   loop8

loop32:
	MOVOU  (SI), X4
	MOVOU  16(SI), X5
	MOVOU  32(SI), X6
	MOVOU  48(SI), X7
	PMAXUW X4, X0
	PMAXUW X5, X1
	PMAXUW X6, X2
	PMAXUW X7, X3
	ADDQ   $64, SI
	SUBQ   $32, CX
	CMPQ   CX, $32
	JAE    loop32
	PMAXUW X1, X0
	PMAXUW X3, X2
	PMAXUW X2, X0

loop8:
	CMPQ   CX, $8
	JB     last
	MOVOU  (SI), X4
	PMAXUW X4, X0
	ADDQ   $16, SI
	SUBQ   $8, CX
	JMP    loop8

last:
	MOVOU      (DI), X4
	PMAXUW     X4, X0
	PCMPEQW    X1, X1
	PXOR       X1, X0
	PHMINPOSUW X0, X0
	MOVL       X0, AX
	NOTL       AX
	ANDL       $0xffff, AX
	MOVW       AX, ret+24(FP)
	RET

scalar:
	TESTQ   CX, CX
	JZ      done
	MOVWLZX (SI), DX
	CMPL    DX, AX
	CMOVLHI DX, AX
	ADDQ    $2, SI
	DECQ    CX
	JMP     scalar

done:
	MOVW AX, ret+24(FP)
	RET
