//go:build amd64 && !purego

#include "textflag.h"

// func gatherValidAsm(o unsafe.Pointer, end uintptr, cs unsafe.Pointer, i, n int, rows unsafe.Pointer, lens *[MaxTokens]uint8) (uintptr, int)
//
// gatherValid's loop (kernel_unsafe.go) for codes (cs is &codes[0]) that
// are all < N: codes i.. decoded 16 at a time while i+16 <= n and o <=
// end, each by a 2-byte code load, its length load, one 16-byte load from
// rows and one store at o, and o += length: six instructions a code where
// the compiled Go takes ten (a shift and a zero-extension to extract each
// code from a word, and register copies). SSE2 only: every amd64 runs it.
// The caller guarantees i+16 <= n. It returns the final o and i.
TEXT ·gatherValidAsm(SB), NOSPLIT, $0-72
	MOVQ o+0(FP), DI
	MOVQ end+8(FP), R8
	MOVQ cs+16(FP), SI
	MOVQ i+24(FP), AX
	MOVQ n+32(FP), CX
	MOVQ rows+40(FP), R9
	MOVQ lens+48(FP), R10
	LEAQ -32(SI)(CX*2), CX // &codes[n-16]: the last start of a block
	LEAQ (SI)(AX*2), SI    // &codes[i]

loop:
	CMPQ SI, CX
	JHI  done
	CMPQ DI, R8
	JHI  done
	MOVWLZX 0(SI), AX
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX 2(SI), R11
	MOVBLZX (R10)(R11*1), R12
	SHLQ    $4, R11
	MOVOU   (R9)(R11*1), X1
	MOVOU   X1, (DI)
	ADDQ    R12, DI
	MOVWLZX 4(SI), R13
	MOVBLZX (R10)(R13*1), DX
	SHLQ    $4, R13
	MOVOU   (R9)(R13*1), X2
	MOVOU   X2, (DI)
	ADDQ    DX, DI
	MOVWLZX 6(SI), AX
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X3
	MOVOU   X3, (DI)
	ADDQ    BX, DI
	MOVWLZX 8(SI), AX
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX 10(SI), R11
	MOVBLZX (R10)(R11*1), R12
	SHLQ    $4, R11
	MOVOU   (R9)(R11*1), X1
	MOVOU   X1, (DI)
	ADDQ    R12, DI
	MOVWLZX 12(SI), R13
	MOVBLZX (R10)(R13*1), DX
	SHLQ    $4, R13
	MOVOU   (R9)(R13*1), X2
	MOVOU   X2, (DI)
	ADDQ    DX, DI
	MOVWLZX 14(SI), AX
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X3
	MOVOU   X3, (DI)
	ADDQ    BX, DI
	MOVWLZX 16(SI), AX
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX 18(SI), R11
	MOVBLZX (R10)(R11*1), R12
	SHLQ    $4, R11
	MOVOU   (R9)(R11*1), X1
	MOVOU   X1, (DI)
	ADDQ    R12, DI
	MOVWLZX 20(SI), R13
	MOVBLZX (R10)(R13*1), DX
	SHLQ    $4, R13
	MOVOU   (R9)(R13*1), X2
	MOVOU   X2, (DI)
	ADDQ    DX, DI
	MOVWLZX 22(SI), AX
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X3
	MOVOU   X3, (DI)
	ADDQ    BX, DI
	MOVWLZX 24(SI), AX
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX 26(SI), R11
	MOVBLZX (R10)(R11*1), R12
	SHLQ    $4, R11
	MOVOU   (R9)(R11*1), X1
	MOVOU   X1, (DI)
	ADDQ    R12, DI
	MOVWLZX 28(SI), R13
	MOVBLZX (R10)(R13*1), DX
	SHLQ    $4, R13
	MOVOU   (R9)(R13*1), X2
	MOVOU   X2, (DI)
	ADDQ    DX, DI
	MOVWLZX 30(SI), AX
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X3
	MOVOU   X3, (DI)
	ADDQ    BX, DI
	ADDQ $32, SI
	JMP  loop

done:
	MOVQ DI, ret+56(FP)
	SUBQ cs+16(FP), SI
	SHRQ $1, SI
	MOVQ SI, ret1+64(FP)
	RET
