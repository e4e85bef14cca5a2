// Stage 2 of tosa-to-npu (src/lowering/npu_plan.py): the plan, a pure function
// of the layers, printed by `tosa-to-npu{dump=plan}` on stderr: program inputs,
// constant sections, then per layer where it reads and writes, its constants,
// what stays on chip and the output rows left for its slots.
// RUN: qopt %S/Inputs/npu-layer-kinds.mlir -p 'tosa-to-npu{machine=small dump=plan}' -o /dev/null 2>&1 | FileCheck %s
// RUN: qopt %S/../../../examples/resnet_block.mlir -p 'stablehlo-legalize-to-tosa,canonicalize,tosa-to-npu{dump=plan}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: qopt %S/../../../examples/resnet_block.mlir -p 'stablehlo-legalize-to-tosa,canonicalize,tosa-to-npu{dump=plan keep_on_chip=false}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DRAM

// Arguments first, then the sections (64-byte aligned), then each output at
// the first free place: %l0's bytes at 448 are free once the table has read
// them, so the move writes %l2 there (first fit by lifetime).
// CHECK: // -----// tosa-to-npu stage: plan //----- //
// CHECK-NEXT: input %arg0 @0 64 bytes
// CHECK-NEXT: section params @64 128 bytes
// CHECK-NEXT: section luts @192 256 bytes
// CHECK-NEXT: layer 0: reads %arg0 @0; writes %l0 @448; params @64; slots: output rows [0, 512)
// CHECK-NEXT: layer 1: reads %l0 @448; writes %l1 @512; table @192; slots: output rows [0, 512)
// CHECK-NEXT: layer 2: reads %l1 @512; writes %l2 @448; slots: output rows [0, 512)
// CHECK-NEXT: layer 3: reads %l2 @448; writes %l3 @512; params @128; slots: output rows [0, 512)
// CHECK-NEXT: output result0: %l3 @512 24 bytes
// CHECK-NEXT: dram: 576 bytes

// conv -> conv -> add: both convolution outputs stay in the output buffer, at
// opposite ends; the second in pixel rows for the add, which therefore goes
// channel by channel. Layer 1's slots avoid the rows its on-chip input holds.
// CHIP: layer 0: reads %arg0 @0; writes %l0 on chip; weights @{{[0-9]+}} params @{{[0-9]+}}; on-chip out: output rows [0, [[IN:[0-9]+]]) window; slots: output rows [0, 4096)
// CHIP-NEXT: layer 1: reads %l0 on chip; writes %l1 on chip; {{.*}}; on-chip in: output rows [0, [[IN]]) window; on-chip out: output rows [[[OUT:[0-9]+]], 4096) pixel rows; slots: output rows [[[IN]], 4096)
// CHIP-NEXT: layer 2: reads %l1 on chip, %arg0 @0; writes %l2 @{{[0-9]+}}; params @{{[0-9]+}}; on-chip in: output rows [[[OUT]], 4096) pixel rows; slots: output rows [0, [[OUT]]); by channel
// CHIP-NEXT: output result0: %l2

// keep_on_chip=false: every tensor goes through DRAM and nothing is by channel.
// DRAM: layer 0: reads %arg0 @0; writes %l0 @[[L0:[0-9]+]];
// DRAM-NEXT: layer 1: reads %l0 @[[L0]]; writes %l1 @{{[0-9]+}};
// DRAM-NOT: on chip
// DRAM-NOT: by channel
// DRAM: output result0: %l2
