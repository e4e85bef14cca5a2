// tosa-to-npu: a fully connected layer becomes loads, one matmul over the K
// tiles, a requant with the rescale's parameters and the clamp's bounds, and a
// store, ordered by tokens. test/unit/lowering/test_tosa_to_npu.py checks the numbers against the
// TOSA interpreter on both machines.
// RUN: qopt %S/Inputs/tosa-to-npu-fc.mlir -p 'tosa-to-npu{machine=small}' -t npu-asm | FileCheck %s
// RUN: qopt %s --verify-diagnostics -p 'tosa-to-npu{machine=small}' -t npu-asm > /dev/null
// The printed program carries its sections and manifest: printing and
// re-reading it gives the same binary.
// RUN: qopt %S/Inputs/tosa-to-npu-fc.mlir -p 'tosa-to-npu{machine=small}' -t npu-bin -o %t.1.npub
// RUN: qopt %S/Inputs/tosa-to-npu-fc.mlir -p 'tosa-to-npu{machine=small}' | qopt -t npu-bin -o %t.2.npub
// RUN: cmp %t.1.npub %t.2.npub
// Bad options are errors with exit status 1, not tracebacks.
// RUN: not qopt %S/Inputs/tosa-to-npu-fc.mlir -p 'tosa-to-npu{machine=nope}' 2>&1 | FileCheck %s --check-prefix=MACHINE
// RUN: not qopt %S/Inputs/tosa-to-npu-fc.mlir -p 'tosa-to-npu{entry=other}' 2>&1 | FileCheck %s --check-prefix=ENTRY
// MACHINE: error: tosa-to-npu: cannot read machine description 'nope'{{.*}}(shipped: default, small)
// ENTRY: error: tosa-to-npu: no function '@other' to compile

// Inputs/tosa-to-npu-fc.mlir: x (2x6) times a constant 6x5 weight, input zero
// point 3, rescale by 2^30 >> 33 to zero point -4, clamp to [-4, 100].
// K = 6 on a 4-wide array: two K tiles (4 + 2 bytes); N = 5: two column
// blocks (4 + 1). Weights are pre-tiled in DRAM, a block per column block
// with its K padded by zero rows, so each block is one DMA; the second block
// goes to the other weight slot, so it loads while the first computes.
// The text is the whole program: machine, io manifest, layer map, data sections,
// then the instructions, each layer's block after a comment naming it.
// CHECK: .machine "small" 0x{{[0-9a-f]+}}
// CHECK-NEXT: .input "arg0" dram=0 shape=[2,6] dtype=int8
// CHECK-NEXT: .output "result0" dram={{[0-9]+}} shape=[2,5] dtype=int8
// CHECK-NEXT: .layer "" code=0..{{[0-9]+}} dram={{[0-9]+}} shape=[2,5]
// CHECK-NEXT: .section weights 0x{{[0-9a-f]+}} 64
// CHECK-NEXT: .bytes {{([0-9a-f][0-9a-f]){64}$}}
// CHECK-NEXT: .section params 0x{{[0-9a-f]+}} 128
// CHECK-NEXT: .bytes {{([0-9a-f][0-9a-f]){64}$}}
// CHECK-NEXT: .bytes {{([0-9a-f][0-9a-f]){64}$}}
// CHECK: .text
// CHECK-NEXT: # layer (unnamed): instructions 0..{{[0-9]+}}
// CHECK-NEXT: load buf=input row=0 dram=0 rows=2 row_bytes=4 stride=6
// CHECK-NEXT: load buf=input row=2 dram=4 rows=2 row_bytes=2 stride=6
// CHECK-NEXT: load buf=weight row=0 dram=[[W:[0-9]+]] rows=8 row_bytes=4 stride=4
// CHECK-NEXT: load buf=params row=0 dram=[[P:[0-9]+]] rows=4 row_bytes=16 stride=16
// CHECK: matmul in=0 w=0 acc=0 m=2 k_tiles=2 accumulate=0 in_step=1 k_step=2 buf=input
// CHECK-NEXT: requant acc=0 out=0 rows=2 params=0 zp=-4 lo=-4 hi=100 round=single
// CHECK-NEXT: signal queue=cp2ld
// CHECK: store buf=output row=0 dram=[[OUT:[0-9]+]] rows=2 row_bytes=4 stride=5
// CHECK: load buf=weight row=8 dram={{[0-9]+}} rows=8 row_bytes=4 stride=4
// CHECK: matmul in=0 w=8 acc=0 m=2 k_tiles=2 accumulate=0 in_step=1 k_step=2 buf=input
// CHECK: requant acc=0 out=2 rows=2 params=4
// CHECK: store buf=output row=2 dram={{[0-9]+}} rows=2 row_bytes=1 stride=5
// CHECK: halt


func.func @main(%x: tensor<4xi8>) -> tensor<4xi32> {
  // expected-error @+1 {{tosa-to-npu: 'tosa.cast' is not supported on the NPU}}
  %0 = tosa.cast %x : (tensor<4xi8>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
