// Stage 2 of tosa-to-npu (src/lowering/npu_plan.py): the plan, a pure function
// of the layers, printed by `tosa-to-npu{dump=plan}` on stderr: program inputs,
// constant sections, then per layer where it reads and writes, its constants,
// what stays on chip and the output rows left for its slots; under it the
// layer's buffer slots (count x rows, and the first row when not 0), its steps,
// and how many steps load each buffer (the others reuse what a slot holds).
// RUN: qopt %S/Inputs/npu-layer-kinds.mlir -p 'tosa-to-npu{machine=small dump=plan}' -o /dev/null 2>&1 | FileCheck %s
// RUN: qopt %S/../../../examples/resnet_block.mlir -p 'stablehlo-legalize-to-tosa,canonicalize,tosa-to-npu{dump=plan}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: qopt %S/../../../examples/resnet_block.mlir -p 'stablehlo-legalize-to-tosa,canonicalize,tosa-to-npu{dump=plan keep_on_chip=false}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DRAM
// RUN: qopt %S/../../../examples/resnet_block.mlir -p 'stablehlo-legalize-to-tosa,canonicalize,tosa-to-npu{machine=small dump=plan}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: qopt %S/../transforms/Inputs/tosa-to-npu-fc.mlir -p 'tosa-to-npu{machine=small dump=plan}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FC

// Arguments first, then the sections (64-byte aligned), then each output at
// the first free place: %l0's bytes at 448 are free once the table has read
// them, so the move writes %l2 there (first fit by lifetime).
// CHECK: // -----// tosa-to-npu stage: plan //----- //
// CHECK-NEXT: input %arg0 @0 64 bytes
// CHECK-NEXT: section params @64 128 bytes
// CHECK-NEXT: section luts @192 256 bytes
// A pool has no weights but takes an empty weight slot, as every window layer does.
// CHECK-NEXT: layer 0: reads %arg0 @0; writes %l0 @448; params @64; output area [0, 512)
// CHECK-NEXT: slots: input 2x16, weight 1x0, params 1x4, output 2x256; steps 1; loads: input 1, weight 1, params 1
// CHECK-NEXT: layer 1: reads %l0 @448; writes %l1 @512; table @192; output area [0, 512)
// CHECK-NEXT: slots: input 2x256, output 2x256; steps 1; loads: input 1
// A move only stages its blocks in input slots; the store engine writes them out.
// CHECK-NEXT: layer 2: reads %l1 @512; writes %l2 @448; output area [0, 512)
// CHECK-NEXT: slots: input 2x512; steps 1; loads: input 1
// CHECK-NEXT: layer 3: reads %l2 @448; writes %l3 @512; params @128; output area [0, 512)
// CHECK-NEXT: slots: input 2x256, params 1x4, output 2x256; steps 1; loads: input 1, params 1
// CHECK-NEXT: output result0: %l3 @512 24 bytes
// CHECK-NEXT: dram: 576 bytes

// conv -> conv -> add: both convolution outputs stay in the output buffer, at
// opposite ends; the second in pixel rows for the add, which therefore goes
// channel by channel. Layer 1's slots avoid the rows its on-chip input holds.
// A layer whose input stays on chip has no input slots, one whose output does
// has no output slots. Each 3x3 convolution skips its taps on padding, so its
// params hold 9 record sets (the interior and 8 border classes) of 16 records.
// CHIP: layer 0: reads %arg0 @0; writes %l0 on chip; weights @{{[0-9]+}} params @{{[0-9]+}}; on-chip out: output rows [0, [[IN:[0-9]+]]) window; output area [0, 4096)
// CHIP-NEXT: slots: input 1x100, weight 1x144, params 1x144; steps 1; loads: input 1, weight 1, params 1
// CHIP-NEXT: layer 1: reads %l0 on chip; writes %l1 on chip; {{.*}}; on-chip in: output rows [0, [[IN]]) window; on-chip out: output rows [[[OUT:[0-9]+]], 4096) pixel rows; output area [[[IN]], 4096)
// CHIP-NEXT: slots: weight 1x144, params 1x144; steps 1; loads: weight 1, params 1
// CHIP-NEXT: layer 2: reads %l1 on chip, %arg0 @0; writes %l2 @{{[0-9]+}}; params @{{[0-9]+}}; on-chip in: output rows [[[OUT]], 4096) pixel rows; output area [0, [[OUT]]); by channel
// The add's output slots start at 0 and end before the on-chip operand.
// CHIP-NEXT: slots: input 2x2046, params 1x32, output 2x1023; steps 1; loads: input 1, params 1
// CHIP-NEXT: output result0: %l2

// keep_on_chip=false: every tensor goes through DRAM and nothing is by channel.
// DRAM: layer 0: reads %arg0 @0; writes %l0 @[[L0:[0-9]+]];
// DRAM-NEXT: slots: input 1x100, weight 1x144, params 1x144, output 2x2040;
// DRAM-NEXT: layer 1: reads %l0 @[[L0]]; writes %l1 @{{[0-9]+}};
// DRAM-NOT: on chip
// DRAM-NOT: by channel
// DRAM: output result0: %l2

// The small machine (4x4 array): the first convolution's 8 output channels are
// two blocks, each with its own weight slot, and the image is one input slot,
// loaded once; compute goes band by band across both blocks, in bands of 1, 2,
// 2, 2 and 1 output rows while the image arrives (`band_sizes`): 10 steps. Its
// record sets stay one per block (the border sets of its skipped padding taps
// would take more than half the 64-row params buffer, so it keeps those taps).
// Layer 1 reads on chip and writes its output where layer 2 reads it, from row
// 200 of the output buffer its own output slots start after its on-chip input.
// SMALL: layer 0: {{.*}}; output area [0, 512)
// SMALL-NEXT: slots: input 1x200, weight 2x72, params 2x4; steps 10; loads: input 1, weight 2, params 2
// SMALL: layer 2: {{.*}}; output area [0, 384); by channel
// SMALL-NEXT: slots: input 2x256, params 2x8, output 2x128; steps 2; loads: input 2, params 2

// A fully connected layer: 6 inputs by 5 outputs on a 4-wide array is two column
// blocks, each its own weight and params slot; the input is loaded once and
// reused by both blocks (a hit).
// FC: layer 0: reads %arg0 @0; writes %l0 @{{[0-9]+}}; weights @{{[0-9]+}} params @{{[0-9]+}}; output area [0, 512)
// FC-NEXT: slots: input 1x4, weight 2x8, params 2x4, output 2x2; steps 2; loads: input 1, weight 2, params 2
