// Stage 1 of tosa-to-npu (src/lowering/npu_graph.py): the entry function as
// layers, printed by `tosa-to-npu{dump=layers}` on stderr. Rescales and clamps
// are folded into the layer before them; a constant's name is %const.
// RUN: qopt %S/Inputs/npu-layer-kinds.mlir -p 'tosa-to-npu{machine=small dump=layers}' -o /dev/null 2>&1 | FileCheck %s
// RUN: qopt %S/../transforms/Inputs/tosa-to-npu-fc.mlir -p 'tosa-to-npu{machine=small dump=layers}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FC
// RUN: qopt %S/../../../examples/resnet_block.mlir -p 'stablehlo-legalize-to-tosa,canonicalize,tosa-to-npu{dump=layers}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESNET
// A constant that broadcasts is read like an activation (the plan tiles it); a
// computed operand that would need broadcasting is an error at the op.
// RUN: qopt %S/Inputs/npu-broadcast-const.mlir -p 'tosa-to-npu{machine=small dump=layers}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BCAST
// RUN: not qopt %S/Inputs/npu-broadcast-const.mlir -p 'tosa-to-npu{machine=small entry=computed}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPUTED
// Only the named stage is printed, and an unknown stage is an error.
// RUN: qopt %S/Inputs/npu-layer-kinds.mlir -p 'tosa-to-npu{machine=small dump=layers}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLY
// RUN: not qopt %S/Inputs/npu-layer-kinds.mlir -p 'tosa-to-npu{dump=bogus}' 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: // -----// tosa-to-npu stage: layers //----- //
// CHECK-NEXT: input %arg0 i8[1, 4, 4, 4]
// CHECK-NEXT: layer 0: %l0 = pool max 2x2 stride=2x2 dilation=1x1 pad=[0, 0, 0, 0] zp_in=0 scales=1 zp=0 clamp=[-128, 127] (%arg0) : i8[1, 2, 2, 4]
// CHECK-NEXT: layer 1: %l1 = table (%l0) : i8[1, 2, 2, 4]
// CHECK-NEXT: layer 2: %l2 = move bytes=24 padded=8 pad=-5 (%l1) : i8[1, 2, 2, 6]
// CHECK-NEXT: layer 3: %l3 = vector rescale (zp=-5 shift=0 scales=0) scales=1 zp=2 clamp=[0, 100] (%l2) : i8[1, 2, 2, 6]
// CHECK-NEXT: output result0: %l3

// The matmul's input zero point 3 and the clamp [-4, 100] are the layer's.
// FC: layer 0: %l0 = fc k=6 n=5 zp_x=3 scales=1 zp=-4 clamp=[-4, 100] (%arg0) : i8[2, 5]

// Two convolutions and the residual add, whose operands are rescaled from i8:
// the add's first operand is a left shift (TFLite's `<< 20`-style widening).
// RESNET: layer 0: %l0 = conv 3x3 stride=1x1 dilation=1x1 pad=[1, 1, 1, 1] c=8 n=8 {{.*}} (%arg0) : i8[1, 8, 8, 8]
// RESNET-NEXT: layer 1: %l1 = conv 3x3 {{.*}} (%l0) : i8[1, 8, 8, 8]
// RESNET-NEXT: layer 2: %l2 = vector add (zp={{-?[0-9]+}} shift={{[0-9]+}} scales=0), (zp={{.*}}) {{.*}} (%l1, %arg0) : i8[1, 8, 8, 8]
// RESNET-NEXT: output result0: %l2

// ONLY: stage: layers
// ONLY-NOT: stage: plan
// ONLY-NOT: stage: code

// BAD: error: tosa-to-npu: dump must be one of layers, plan, code or all

// BCAST: layer 0: %l0 = vector add (zp=0 shift=0 scales=0), (zp=0 shift=0 scales=0) {{.*}} (%arg0, %const) : i8[1, 2, 3, 4]

// COMPUTED: npu-broadcast-const.mlir:25:3: error: tosa-to-npu: 'tosa.add' needs both operands rescaled from i8 tensors of its own shape, or from constants that broadcast to it
