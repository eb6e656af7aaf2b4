//go:build amd64 && !purego

#include "textflag.h"

// func gatherValidAsm(o unsafe.Pointer, end uintptr, cs unsafe.Pointer, i, n int, rows unsafe.Pointer, lens *[MaxTokens]uint8) (uintptr, int)
//
// gatherValid's loop (kernel_unsafe.go) for codes (cs is &codes[0]) that
// are all < N: codes i.. decoded 16 at a time while i+16 <= n and o <=
// end. Four codes come in one 8-byte load and are taken from its low 16
// bits and shifted out; each then costs its length load, one 16-byte load
// from rows and one store at o, and o += length: seven instructions and
// two and a quarter loads a code, where the compiled Go takes ten (and
// the same loop with a 2-byte load per code ran 1.04-1.07x slower). SSE2
// only: every amd64 runs it. The caller guarantees i+16 <= n. It returns
// the final o and i.
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
	MOVQ    0(SI), R12
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVBLZX (R10)(R12*1), BX
	SHLQ    $4, R12
	MOVOU   (R9)(R12*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVQ    8(SI), R13
	MOVWLZX R13, AX
	SHRQ    $16, R13
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R13, AX
	SHRQ    $16, R13
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R13, AX
	SHRQ    $16, R13
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVBLZX (R10)(R13*1), BX
	SHLQ    $4, R13
	MOVOU   (R9)(R13*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVQ    16(SI), R12
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVBLZX (R10)(R12*1), BX
	SHLQ    $4, R12
	MOVOU   (R9)(R12*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVQ    24(SI), R13
	MOVWLZX R13, AX
	SHRQ    $16, R13
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R13, AX
	SHRQ    $16, R13
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R13, AX
	SHRQ    $16, R13
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVBLZX (R10)(R13*1), BX
	SHLQ    $4, R13
	MOVOU   (R9)(R13*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	ADDQ $32, SI
	JMP  loop

done:
	MOVQ DI, ret+56(FP)
	SUBQ cs+16(FP), SI
	SHRQ $1, SI
	MOVQ SI, ret1+64(FP)
	RET

// func gatherRowAsm(o unsafe.Pointer, cs unsafe.Pointer, k int, pad uint64, rows unsafe.Pointer, lens *[MaxTokens]uint8) uintptr
//
// A row of k >= 1 validated codes at cs, four codes an 8-byte load: whole
// groups of four while more than four remain, then one last group of 1..4
// whose lanes past the row are replaced by pad's (the length-0 code N),
// so a row costs one loop exit, not a second loop for the remainder. The
// caller guarantees that the last group's 8 bytes lie within the codes
// and 16*(k+1) bytes of room at o (a pad's store lands at the row's end).
// It returns the final o.
TEXT ·gatherRowAsm(SB), NOSPLIT, $0-56
	MOVQ o+0(FP), DI
	MOVQ cs+8(FP), SI
	MOVQ k+16(FP), CX
	MOVQ pad+24(FP), DX
	MOVQ rows+32(FP), R9
	MOVQ lens+40(FP), R10

rloop:
	CMPQ CX, $4
	JLE  rlast
	MOVQ (SI), R12
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVBLZX (R10)(R12*1), BX
	SHLQ    $4, R12
	MOVOU   (R9)(R12*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	ADDQ $8, SI
	SUBQ $4, CX
	JMP  rloop

rlast:
	// keep = ^0 >> (64-16*CX) selects the row's 1..4 lanes.
	MOVQ (SI), R12
	SHLQ $4, CX
	NEGQ CX
	ADDQ $64, CX
	MOVQ $-1, AX
	SHRQ CX, AX
	ANDQ AX, R12
	NOTQ AX
	ANDQ DX, AX
	ORQ  AX, R12
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), BX
	SHLQ    $4, AX
	MOVOU   (R9)(AX*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVBLZX (R10)(R12*1), BX
	SHLQ    $4, R12
	MOVOU   (R9)(R12*1), X0
	MOVOU   X0, (DI)
	ADDQ    BX, DI
	MOVQ DI, ret+48(FP)
	RET
