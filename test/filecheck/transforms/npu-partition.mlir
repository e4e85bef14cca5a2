// npu-partition: the parts of the entry function tosa-to-npu can run become
// private functions marked for the NPU, called from the entry function; the rest
// stays on the host. Each case prints the decisions (dump=true, stderr) and the
// entry function; qopt parses the result back, so no region made a cycle.
// RUN: qopt %s --split-input-file -p 'npu-partition{dump=true}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: qopt %s --split-input-file -p 'npu-partition' | FileCheck %s
// RUN: qopt %s --split-input-file -p 'npu-partition' | qopt --split-input-file > /dev/null
// RUN: qopt %s --split-input-file -p 'npu-partition{host-macs-per-cycle=1000000 dump=true}' 2>&1 | FileCheck %s --check-prefix=SLOWNPU
// RUN: qopt %s --split-input-file -p 'npu-partition{machine=small host-macs-per-cycle=1 dump=true}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not qopt %s --split-input-file -p 'npu-partition{min-macs=-1}' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not qopt %s --split-input-file -p 'npu-partition{machine=nope}' 2>&1 | FileCheck %s --check-prefix=BADMACHINE
// RUN: not qopt %s --split-input-file -p 'npu-partition{entry=nope}' 2>&1 | FileCheck %s --check-prefix=BADENTRY

// BADOPT: error: npu-partition: min-macs must be >= 0 and host-macs-per-cycle >= 1
// BADMACHINE: error: npu-partition:
// BADENTRY: error: npu-partition: no function '@nope' to partition

// An op with no NPU rule between two fully connected layers: two regions, the
// host op between their calls.
// DUMP-LABEL: // -----// npu-partition //----- //
// DUMP-NEXT: host: 1 op(s) (tosa.maximum): tosa-to-npu has no rule for it
// DUMP-NEXT: region 0: @main_npu0 4 ops, 256 MACs, 1 in, 1 out
// DUMP-NEXT: region 1: @main_npu1 4 ops, 256 MACs, 1 in, 1 out
// CHECK-LABEL: func.func @main(%x: tensor<4x8xi8>)
// CHECK: %f1 = call @main_npu0(%x)
// CHECK-NEXT: %h = tosa.maximum %f1, %x
// CHECK-NEXT: %f2 = call @main_npu1(%h)
// CHECK-NEXT: return %f2
// CHECK: func.func private @main_npu0(%0: tensor<4x8xi8>) -> tensor<4x8xi8> attributes {qdialect.machine = "default", qdialect.target = "npu"}
// CHECK: tosa.matmul
// CHECK: func.func private @main_npu1
func.func @main(%x: tensor<4x8xi8>) -> tensor<4x8xi8> {
  %s3 = tosa.const_shape values(dense<[1, 4, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %s2 = tosa.const_shape values(dense<[4, 8]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %w = tosa.const values(dense<1> : tensor<1x8x8xi8>) : () -> tensor<1x8x8xi8>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %wide = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %f1_a = tosa.reshape %x, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %f1_acc = tosa.matmul %f1_a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f1_acc2 = tosa.reshape %f1_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f1 = tosa.rescale %f1_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  %h = tosa.maximum %f1, %x : (tensor<4x8xi8>, tensor<4x8xi8>) -> tensor<4x8xi8>
  %f2_a = tosa.reshape %h, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %f2_acc = tosa.matmul %f2_a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f2_acc2 = tosa.reshape %f2_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f2 = tosa.rescale %f2_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  func.return %f2 : tensor<4x8xi8>
}

// -----

// A residual block whose skip branch passes a host op: the add cannot join the
// first region (a path from it leaves through the host op and comes back), so
// it starts a second region, and the calls keep every value defined before its
// use. The widening rescales of the add's operands are cloned into the add's
// region, so only int8 tensors cross.
// DUMP-LABEL: // -----// npu-partition //----- //
// DUMP-NEXT: host: 1 op(s) (tosa.maximum): tosa-to-npu has no rule for it
// DUMP-NEXT: region 0: @main_npu0 8 ops, 512 MACs, 1 in, 2 out
// DUMP-NEXT: region 1: @main_npu1 8 ops, 256 MACs, 2 in, 1 out
// CHECK-LABEL: func.func @main(%x: tensor<4x8xi8>)
// CHECK: %f1, %f2 = call @main_npu0(%x)
// CHECK-NEXT: %h = tosa.maximum %f1, %f1
// CHECK-NEXT: %f3 = call @main_npu1(%f2, %h)
// CHECK-NEXT: return %f3
// CHECK: func.func private @main_npu1(%0: tensor<4x8xi8>, %1: tensor<4x8xi8>)
// CHECK: tosa.rescale %0
// CHECK: tosa.rescale %1
// CHECK: tosa.add
func.func @main(%x: tensor<4x8xi8>) -> tensor<4x8xi8> {
  %s3 = tosa.const_shape values(dense<[1, 4, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %s2 = tosa.const_shape values(dense<[4, 8]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %w = tosa.const values(dense<1> : tensor<1x8x8xi8>) : () -> tensor<1x8x8xi8>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %wide = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %f1_a = tosa.reshape %x, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %f1_acc = tosa.matmul %f1_a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f1_acc2 = tosa.reshape %f1_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f1 = tosa.rescale %f1_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  %f2_a = tosa.reshape %f1, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %f2_acc = tosa.matmul %f2_a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f2_acc2 = tosa.reshape %f2_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f2 = tosa.rescale %f2_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  %h = tosa.maximum %f1, %f1 : (tensor<4x8xi8>, tensor<4x8xi8>) -> tensor<4x8xi8>
  %wa = tosa.rescale %f2, %m, %wide, %z8, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4x8xi32>
  %wb = tosa.rescale %h, %m, %wide, %z8, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4x8xi32>
  %sum = tosa.add %wa, %wb : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %y = tosa.rescale %sum, %m, %wide, %z32, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  %f3_a = tosa.reshape %y, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %f3_acc = tosa.matmul %f3_a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f3_acc2 = tosa.reshape %f3_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f3 = tosa.rescale %f3_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  func.return %f3 : tensor<4x8xi8>
}

// -----

// A host op that reads the accumulator: the matmul gives no int8 tensor, so it
// can only run inside the region of an NPU op that reads it (as reshapes do);
// there is none. Everything stays on the host.
// DUMP-LABEL: // -----// npu-partition //----- //
// DUMP-NEXT: host: 1 op(s) (tosa.maximum): tosa-to-npu has no rule for it
// DUMP-NOT: region
// CHECK-LABEL: func.func @main
// CHECK-NOT: call
// CHECK: tosa.matmul
func.func @main(%x: tensor<4x8xi8>) -> tensor<4x8xi32> {
  %s3 = tosa.const_shape values(dense<[1, 4, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %s2 = tosa.const_shape values(dense<[4, 8]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %w = tosa.const values(dense<1> : tensor<1x8x8xi8>) : () -> tensor<1x8x8xi8>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %wide = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %a = tosa.reshape %x, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %acc = tosa.matmul %a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %acc2 = tosa.reshape %acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %h = tosa.maximum %acc2, %acc2 : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  func.return %h : tensor<4x8xi32>
}

// -----

// A region with no multiply-accumulate work does not pay for two DRAM transfers.
// DUMP-LABEL: // -----// npu-partition //----- //
// DUMP-NEXT: host: 1 op(s) (tosa.table): has 0 MACs, fewer than min-macs=1
// DUMP-NOT: region
func.func @main(%x: tensor<4x8xi8>) -> tensor<4x8xi8> {
  %t = tosa.const values(dense<3> : tensor<256xi8>) : () -> tensor<256xi8>
  %y = tosa.table %x, %t : (tensor<4x8xi8>, tensor<256xi8>) -> tensor<4x8xi8>
  func.return %y : tensor<4x8xi8>
}

// With a host that multiplies far faster, no region is worth its transfers.
// SLOWNPU: host: {{.*}} is not faster on the NPU
// SLOWNPU-NOT: region {{[0-9]}}:

// -----

// Layout transposes of the program's input and output (an ONNX model's NCHW
// boundary) stay on the host, which writes the input and reads the output; the
// layer between them is the region.
// DUMP-LABEL: // -----// npu-partition //----- //
// DUMP-NEXT: host: 2 op(s) (tosa.transpose): a layout transpose of the program's input or output: the host writes and reads those
// DUMP-NEXT: region 0: @main_npu0 {{[0-9]+}} ops, 256 MACs, 1 in, 1 out
// CHECK-LABEL: func.func @main(%x: tensor<8x4xi8>)
// CHECK-NEXT: %t = tosa.transpose %x perms([1, 0])
// CHECK-NEXT: %f = call @main_npu0(%t)
// CHECK-NEXT: %y = tosa.transpose %f perms([1, 0])
// CHECK-NEXT: return %y
func.func @main(%x: tensor<8x4xi8>) -> tensor<8x4xi8> {
  %s3 = tosa.const_shape values(dense<[1, 4, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %s2 = tosa.const_shape values(dense<[4, 8]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %w = tosa.const values(dense<1> : tensor<1x8x8xi8>) : () -> tensor<1x8x8xi8>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %t = tosa.transpose %x perms([1, 0]) : (tensor<8x4xi8>) -> tensor<4x8xi8>
  %a = tosa.reshape %t, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %acc = tosa.matmul %a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %acc2 = tosa.reshape %acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f = tosa.rescale %acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  %y = tosa.transpose %f perms([1, 0]) : (tensor<4x8xi8>) -> tensor<8x4xi8>
  func.return %y : tensor<8x4xi8>
}

// -----

// A layer the machine's buffers cannot hold goes to the host whole (the convolution,
// its rescale and its clamp together), with the reason, rather than stopping the pass.
// On the default machine the same convolution fits, as it is (folding its 4 channels by
// 3 kernel columns into 12 would save fewer array passes than its copies cost).
// SMALL-LABEL: // -----// npu-partition //----- //
// SMALL: host: 3 op(s) (tosa.clamp, tosa.conv2d, tosa.rescale): tosa-to-npu: 'tosa.conv2d' does not fit the machine: an output row needs 402 accumulator and output rows
// SMALL-NOT: region
// DUMP-LABEL: // -----// npu-partition //----- //
// DUMP-NEXT: region 0: @main_npu0 3 ops, 172800 MACs, 1 in, 1 out
func.func @main(%x: tensor<1x3x400x4xi8>) -> tensor<1x3x400x4xi8> {
  %w = tosa.const values(dense<1> : tensor<4x3x3x4xi8>) : () -> tensor<4x3x3x4xi8>
  %b = tosa.const values(dense<0> : tensor<4xi32>) : () -> tensor<4xi32>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %z8, %z8 pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x3x400x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x400x4xi32>
  %y = tosa.rescale %acc, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x3x400x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x400x4xi8>
  %r = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x3x400x4xi8>) -> tensor<1x3x400x4xi8>
  func.return %r : tensor<1x3x400x4xi8>
}
