// Stage 3 of tosa-to-npu (src/lowering/npu_emit.py): the instruction records,
// printed by `tosa-to-npu{dump=code}` on stderr as assembly with a comment where
// each layer starts. It is the program stage 4 assembles: qasm reads it (after
// the stage header), and without the comments it is the instructions `-t npu-asm`
// prints after the program's directives.
// RUN: rm -rf %t && mkdir -p %t
// RUN: qopt %S/Inputs/npu-layer-kinds.mlir -p 'tosa-to-npu{machine=small dump=code}' -o /dev/null 2> %t/code.s
// RUN: FileCheck %s < %t/code.s
// RUN: grep -v '^//' %t/code.s > %t/code.asm
// RUN: qasm %t/code.asm --machine small -o %t/code.npub
// RUN: qopt %S/Inputs/npu-layer-kinds.mlir -p 'tosa-to-npu{machine=small}' -t npu-asm -o %t/asm.s
// RUN: grep -v '^#' %t/code.asm > %t/code.plain
// RUN: grep -v '^[#.]' %t/asm.s > %t/asm.plain
// RUN: diff %t/code.plain %t/asm.plain
// RUN: qopt %S/Inputs/npu-residual-sub.mlir -p 'tosa-to-npu{machine=small dump=code}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUB

// CHECK: // -----// tosa-to-npu stage: code //----- //
// CHECK-NEXT: # layer 0: pool
// The loads before one token go in the order of the rows they write; each stride
// phase's image rows (2 pixels, every other image row) are one load2d.
// CHECK-NEXT: load2d buf=input row=0 dram=0 rows=2 row_bytes=4 stride=8 blocks=2 block_stride=32
// CHECK: load buf=params row=0 dram=64 rows=4 row_bytes=16 stride=16
// CHECK: pool op=max buf=input in=0 acc=0 rows=4 taps=1 row_step=1 tap_step=1
// CHECK: alu op=max dst=0 src=4 rows=4 use_imm=0 imm=0
// CHECK: requant acc=0 out=0 rows=4 params=0 zp=0 lo=-128 hi=127 round=single
// A layer ends by taking back its store group and releasing; the next layer's
// first load waits for every release.
// CHECK: signal queue=cp2ld
// CHECK-NEXT: wait queue=st2cp
// CHECK-NEXT: signal queue=cp2ld
// CHECK-NEXT: # layer 1: table
// CHECK-NEXT: wait queue=cp2ld
// CHECK-NEXT: wait queue=cp2ld
// CHECK: load buf=lut row=0 dram=192 rows=1 row_bytes=256 stride=256
// CHECK: lut buf=input in=0 out=0 rows=4 table=0
// CHECK: # layer 2: move
// A padding-only load (rows=0) for the pad value, then the data: DMA only.
// CHECK: load buf=input row=0 dram=0 rows=0 row_bytes=0 stride=0 pad=-5 pad_top=2
// CHECK: store buf=input
// CHECK: # layer 3: vector
// CHECK: widen buf=input in=0 acc=0 rows={{[0-9]+}} zp=-5 shift=0
// CHECK: requant {{.*}} zp=2 lo=0 hi=100
// CHECK: halt

// Each operand of the residual sub is one `widen` pass: centred, shifted, its i32 -> i32
// rescale applied by its records; the second subtracts itself from the first.
// SUB: # layer 0: vector
// SUB: widen buf=input in=0 acc=0 rows=64 zp=-3 shift=20 scaled=1 params=0 round=single combine=set
// SUB-NEXT: widen buf=input in=128 acc=0 rows=64 zp=7 shift=20 scaled=1 params=4 round=double combine=sub
// SUB-NEXT: requant acc=0 out=0 rows=64 params=8 zp=0 lo=-128 hi=127 round=single
