//go:build amd64 && !purego

#include "textflag.h"

// func gatherPackedAVX2(o unsafe.Pointer, end uintptr, src unsafe.Pointer, groups int, rows unsafe.Pointer, lens *[MaxTokens]uint8, tab *unpackTab) (uintptr, int, uint16)
//
// The packed decoders' loop (gatherPackedSIMD): up to groups groups of 16
// codes packed at tab's width (8..16 bits) from src, while o <= end. Each
// group is unpacked in registers (a group is 2*width bytes, each half of
// 8 codes width bytes starting on a byte boundary; a 128-bit lane's four
// codes come from one unaligned 16-byte load, the second lane's at byte h
// = 4*width/8 of the half, VPSHUFB puts the 4 bytes from each code's
// first byte in its dword lane, VPSRLVD shifts by the code's bit offset,
// VPAND masks, VPACKUSDW and VPERMQ order the words), folded into the
// running maximum (VPMAXUW), stored to a 32-byte stack slot and decoded
// from there as gatherValidAsm does (code load, length load from lens,
// 16-byte copy from rows, add). No code is checked in the loop: lens is 0
// past N and rows has a slot for every width-bit code, so a code >= N
// writes in-bounds garbage of length 0, and the caller reports it from the
// returned maximum. The caller guarantees that every load (up to byte
// 2*width*groups - width + h + 16 of src) lies within the packed bytes.
// tab: ctrl [32]byte at 0, shift [8]uint32 at 32, mask [8]uint32 at 64,
// h at 96, width at 104. It returns the final o, the groups decoded and
// their maximum code.
TEXT ·gatherPackedAVX2(SB), NOSPLIT, $32-74
	MOVQ    o+0(FP), DI
	MOVQ    end+8(FP), R8
	MOVQ    src+16(FP), SI
	MOVQ    groups+24(FP), CX
	MOVQ    rows+32(FP), R9
	MOVQ    lens+40(FP), R10
	MOVQ    tab+48(FP), AX
	VMOVDQU 0(AX), Y4
	VMOVDQU 32(AX), Y5
	VMOVDQU 64(AX), Y6
	MOVQ    96(AX), BX
	MOVQ    104(AX), DX
	VPXOR   Y7, Y7, Y7

ploop:
	TESTQ CX, CX
	JLE   pdone
	CMPQ  DI, R8
	JHI   pdone
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(BX*1), Y0, Y0
	LEAQ        (SI)(DX*1), R11
	VMOVDQU     (R11), X1
	VINSERTI128 $1, (R11)(BX*1), Y1, Y1
	LEAQ        (R11)(DX*1), SI
	VPSHUFB     Y4, Y0, Y0
	VPSHUFB     Y4, Y1, Y1
	VPSRLVD     Y5, Y0, Y0
	VPSRLVD     Y5, Y1, Y1
	VPAND       Y6, Y0, Y0
	VPAND       Y6, Y1, Y1
	VPACKUSDW   Y1, Y0, Y0
	VPERMQ      $0xD8, Y0, Y0
	VPMAXUW     Y0, Y7, Y7
	VEXTRACTI128 $1, Y0, X1
	VMOVQ   X0, R12
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), R11
	SHLQ    $4, AX
	VMOVDQU (R9)(AX*1), X2
	VMOVDQU X2, (DI)
	ADDQ    R11, DI
	MOVWLZX R12, R13
	SHRQ    $16, R12
	MOVBLZX (R10)(R13*1), AX
	SHLQ    $4, R13
	VMOVDQU (R9)(R13*1), X3
	VMOVDQU X3, (DI)
	ADDQ    AX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), R11
	SHLQ    $4, AX
	VMOVDQU (R9)(AX*1), X2
	VMOVDQU X2, (DI)
	ADDQ    R11, DI
	MOVWLZX R12, R13
	MOVBLZX (R10)(R13*1), AX
	SHLQ    $4, R13
	VMOVDQU (R9)(R13*1), X3
	VMOVDQU X3, (DI)
	ADDQ    AX, DI
	VPEXTRQ $1, X0, R12
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), R11
	SHLQ    $4, AX
	VMOVDQU (R9)(AX*1), X2
	VMOVDQU X2, (DI)
	ADDQ    R11, DI
	MOVWLZX R12, R13
	SHRQ    $16, R12
	MOVBLZX (R10)(R13*1), AX
	SHLQ    $4, R13
	VMOVDQU (R9)(R13*1), X3
	VMOVDQU X3, (DI)
	ADDQ    AX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), R11
	SHLQ    $4, AX
	VMOVDQU (R9)(AX*1), X2
	VMOVDQU X2, (DI)
	ADDQ    R11, DI
	MOVWLZX R12, R13
	MOVBLZX (R10)(R13*1), AX
	SHLQ    $4, R13
	VMOVDQU (R9)(R13*1), X3
	VMOVDQU X3, (DI)
	ADDQ    AX, DI
	VMOVQ   X1, R12
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), R11
	SHLQ    $4, AX
	VMOVDQU (R9)(AX*1), X2
	VMOVDQU X2, (DI)
	ADDQ    R11, DI
	MOVWLZX R12, R13
	SHRQ    $16, R12
	MOVBLZX (R10)(R13*1), AX
	SHLQ    $4, R13
	VMOVDQU (R9)(R13*1), X3
	VMOVDQU X3, (DI)
	ADDQ    AX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), R11
	SHLQ    $4, AX
	VMOVDQU (R9)(AX*1), X2
	VMOVDQU X2, (DI)
	ADDQ    R11, DI
	MOVWLZX R12, R13
	MOVBLZX (R10)(R13*1), AX
	SHLQ    $4, R13
	VMOVDQU (R9)(R13*1), X3
	VMOVDQU X3, (DI)
	ADDQ    AX, DI
	VPEXTRQ $1, X1, R12
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), R11
	SHLQ    $4, AX
	VMOVDQU (R9)(AX*1), X2
	VMOVDQU X2, (DI)
	ADDQ    R11, DI
	MOVWLZX R12, R13
	SHRQ    $16, R12
	MOVBLZX (R10)(R13*1), AX
	SHLQ    $4, R13
	VMOVDQU (R9)(R13*1), X3
	VMOVDQU X3, (DI)
	ADDQ    AX, DI
	MOVWLZX R12, AX
	SHRQ    $16, R12
	MOVBLZX (R10)(AX*1), R11
	SHLQ    $4, AX
	VMOVDQU (R9)(AX*1), X2
	VMOVDQU X2, (DI)
	ADDQ    R11, DI
	MOVWLZX R12, R13
	MOVBLZX (R10)(R13*1), AX
	SHLQ    $4, R13
	VMOVDQU (R9)(R13*1), X3
	VMOVDQU X3, (DI)
	ADDQ    AX, DI
	DECQ CX
	JMP  ploop

pdone:
	VEXTRACTI128 $1, Y7, X1
	VPMAXUW      X1, X7, X7
	VPCMPEQW     X1, X1, X1
	VPXOR        X1, X7, X7
	VPHMINPOSUW  X7, X7
	VMOVD        X7, AX
	NOTL         AX
	VZEROUPPER
	MOVQ         DI, ret+56(FP)
	MOVQ         groups+24(FP), DX
	SUBQ         CX, DX
	MOVQ         DX, ret1+64(FP)
	MOVW         AX, ret2+72(FP)
	RET
