// tosa-reduce-transposes: transposes move through layout-agnostic ops so inverse pairs
// meet and cancel; a move that would not lower the count is not made.
// test/unit/transforms/test_tosa_reduce_transposes.py runs every case below on the
// interpreter before and after and checks that no bit changes.
// RUN: qopt %s --split-input-file -p tosa-reduce-transposes | FileCheck %s

// A residual add of two channels-first values feeding the next convolution: the
// rescales, the add and the clamp are rewritten channels-last, and the three
// transposes cancel.
// CHECK-LABEL: func.func @residual
// CHECK-NOT: tosa.transpose
// CHECK: tosa.rescale %a, {{.*}} -> tensor<1x4x2x3xi8>
// CHECK: tosa.rescale %b, {{.*}} -> tensor<1x4x2x3xi8>
// CHECK: tosa.add {{.*}} -> tensor<1x4x2x3xi8>
// CHECK: tosa.clamp {{.*}} -> tensor<1x4x2x3xi8>
// CHECK-NOT: tosa.transpose
// CHECK: tosa.conv2d
func.func @residual(%a: tensor<1x4x2x3xi32>, %b: tensor<1x4x2x3xi32>) -> tensor<1x4x2x5xi32> {
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %z = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %ta = tosa.transpose %a perms([0, 3, 1, 2]) : (tensor<1x4x2x3xi32>) -> tensor<1x3x4x2xi32>
  %tb = tosa.transpose %b perms([0, 3, 1, 2]) : (tensor<1x4x2x3xi32>) -> tensor<1x3x4x2xi32>
  %ra = tosa.rescale %ta, %m, %s, %z, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x3x4x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x4x2xi8>
  %rb = tosa.rescale %tb, %m, %s, %z, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x3x4x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x4x2xi8>
  %sum = tosa.add %ra, %rb : (tensor<1x3x4x2xi8>, tensor<1x3x4x2xi8>) -> tensor<1x3x4x2xi8>
  %relu = tosa.clamp %sum min_val(0 : i8) max_val(127 : i8) : (tensor<1x3x4x2xi8>) -> tensor<1x3x4x2xi8>
  %t = tosa.transpose %relu perms([0, 2, 3, 1]) : (tensor<1x3x4x2xi8>) -> tensor<1x4x2x3xi8>
  %w = tosa.const values(dense<1> : tensor<5x1x1x3xi8>) : () -> tensor<5x1x1x3xi8>
  %bias = tosa.const values(dense<0> : tensor<5xi32>) : () -> tensor<5xi32>
  %c = tosa.conv2d %t, %w, %bias, %z8, %z8 {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x2x3xi8>, tensor<5x1x1x3xi8>, tensor<5xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x2x5xi32>
  func.return %c : tensor<1x4x2x5xi32>
}

// -----

// A broadcast constant (rank raised to the data's) is permuted at compile time; the
// mul's shift operand stays as it is.
// CHECK-LABEL: func.func @constant_operand
// CHECK-NOT: tosa.transpose
// CHECK: %[[K:.*]] = tosa.const  values(dense<{{\[\[\[\[}}1, 2, 3]]]]> : tensor<1x1x1x3xi8>)
// CHECK: tosa.sub %x, %[[K]] : (tensor<1x2x2x3xi8>, tensor<1x1x1x3xi8>) -> tensor<1x2x2x3xi8>
// CHECK: tosa.mul %{{.*}}, %[[K]], %shift
// CHECK-NOT: tosa.transpose
// CHECK: return
func.func @constant_operand(%x: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
  %t = tosa.transpose %x perms([0, 3, 1, 2]) : (tensor<1x2x2x3xi8>) -> tensor<1x3x2x2xi8>
  %k = tosa.const values(dense<[[[[1]], [[2]], [[3]]]]> : tensor<1x3x1x1xi8>) : () -> tensor<1x3x1x1xi8>
  %s = tosa.sub %t, %k : (tensor<1x3x2x2xi8>, tensor<1x3x1x1xi8>) -> tensor<1x3x2x2xi8>
  %shift = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %p = tosa.mul %s, %k, %shift : (tensor<1x3x2x2xi8>, tensor<1x3x1x1xi8>, tensor<1xi8>) -> tensor<1x3x2x2xi32>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %z = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %p, %m, %sh, %z, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x3x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x2x2xi8>
  %back = tosa.transpose %r perms([0, 2, 3, 1]) : (tensor<1x3x2x2xi8>) -> tensor<1x2x2x3xi8>
  func.return %back : tensor<1x2x2x3xi8>
}

// -----

// Concatenation along channels: axis 1 of NCHW is axis 3 of NHWC.
// CHECK-LABEL: func.func @concat
// CHECK-NEXT: %[[C:.*]] = tosa.concat %a, %b axis(3) : (tensor<1x2x2x3xi8>, tensor<1x2x2x5xi8>) -> tensor<1x2x2x8xi8>
// CHECK-NEXT: return %[[C]]
func.func @concat(%a: tensor<1x2x2x3xi8>, %b: tensor<1x2x2x5xi8>) -> tensor<1x2x2x8xi8> {
  %ta = tosa.transpose %a perms([0, 3, 1, 2]) : (tensor<1x2x2x3xi8>) -> tensor<1x3x2x2xi8>
  %tb = tosa.transpose %b perms([0, 3, 1, 2]) : (tensor<1x2x2x5xi8>) -> tensor<1x5x2x2xi8>
  %c = tosa.concat %ta, %tb {axis = 1 : i32} : (tensor<1x3x2x2xi8>, tensor<1x5x2x2xi8>) -> tensor<1x8x2x2xi8>
  %back = tosa.transpose %c perms([0, 2, 3, 1]) : (tensor<1x8x2x2xi8>) -> tensor<1x2x2x8xi8>
  func.return %back : tensor<1x2x2x8xi8>
}

// -----

// Pad amounts, slice starts and sizes are permuted, the reduction's axis remapped.
// CHECK-LABEL: func.func @pad_slice_reduce
// CHECK-NOT: tosa.transpose
// CHECK: %[[P:.*]] = tosa.const_shape  values(dense<[0, 0, 1, 1, 2, 0, 0, 0]> : tensor<8xindex>)
// CHECK: tosa.pad %x, %[[P]], %fill : (tensor<1x4x4x3xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x6x6x3xi8>
// CHECK: %[[START:.*]] = tosa.const_shape  values(dense<[0, 0, 0, 1]> : tensor<4xindex>)
// CHECK: %[[SIZE:.*]] = tosa.const_shape  values(dense<[1, 6, 6, 2]> : tensor<4xindex>)
// CHECK: tosa.slice %{{.*}}, %[[START]], %[[SIZE]] {{.*}} -> tensor<1x6x6x2xi8>
// CHECK: tosa.reduce_max %{{.*}} axis(1) : (tensor<1x6x6x2xi8>) -> tensor<1x1x6x2xi8>
// CHECK-NOT: tosa.transpose
func.func @pad_slice_reduce(%x: tensor<1x4x4x3xi8>) -> tensor<1x1x6x2xi8> {
  %t = tosa.transpose %x perms([0, 3, 1, 2]) : (tensor<1x4x4x3xi8>) -> tensor<1x3x4x4xi8>
  %padding = tosa.const_shape values(dense<[0, 0, 0, 0, 1, 1, 2, 0]> : tensor<8xindex>) : () -> !tosa.shape<8>
  %fill = tosa.const values(dense<-5> : tensor<1xi8>) : () -> tensor<1xi8>
  %p = tosa.pad %t, %padding, %fill : (tensor<1x3x4x4xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x3x6x6xi8>
  %start = tosa.const_shape values(dense<[0, 1, 0, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %size = tosa.const_shape values(dense<[1, 2, 6, 6]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %sl = tosa.slice %p, %start, %size : (tensor<1x3x6x6xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x6x6xi8>
  %r = tosa.reduce_max %sl {axis = 2 : i32} : (tensor<1x2x6x6xi8>) -> tensor<1x2x1x6xi8>
  %back = tosa.transpose %r perms([0, 2, 3, 1]) : (tensor<1x2x1x6xi8>) -> tensor<1x1x6x2xi8>
  func.return %back : tensor<1x1x6x2xi8>
}

// -----

// The clamp's result is used both as it is and transposed: moving the transpose above
// the clamp would need one on each side, so it stays.
// CHECK-LABEL: func.func @mixed_use
// CHECK-NEXT: %c = tosa.clamp %x
// CHECK-NEXT: %t = tosa.transpose %c perms([0, 3, 1, 2])
// CHECK-NEXT: return %c, %t
func.func @mixed_use(%x: tensor<1x2x2x3xi8>) -> (tensor<1x2x2x3xi8>, tensor<1x3x2x2xi8>) {
  %c = tosa.clamp %x min_val(0 : i8) max_val(127 : i8) : (tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8>
  %t = tosa.transpose %c perms([0, 3, 1, 2]) : (tensor<1x2x2x3xi8>) -> tensor<1x3x2x2xi8>
  func.return %c, %t : tensor<1x2x2x3xi8>, tensor<1x3x2x2xi8>
}

// -----

// A per-channel rescale scales along its last axis: in NHWC that axis would be C, not
// W, so the transposes around it stay.
// CHECK-LABEL: func.func @per_channel
// CHECK: tosa.transpose %x perms([0, 3, 1, 2])
// CHECK: tosa.rescale {{.*}} per_channel(true)
// CHECK: tosa.transpose %r perms([0, 2, 3, 1])
func.func @per_channel(%x: tensor<1x2x2x3xi32>) -> tensor<1x2x2x3xi8> {
  %t = tosa.transpose %x perms([0, 3, 1, 2]) : (tensor<1x2x2x3xi32>) -> tensor<1x3x2x2xi32>
  %m = tosa.const values(dense<[1073741824, 536870912]> : tensor<2xi32>) : () -> tensor<2xi32>
  %s = tosa.const values(dense<30> : tensor<2xi8>) : () -> tensor<2xi8>
  %z = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %t, %m, %s, %z, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(false) : (tensor<1x3x2x2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x2x2xi8>
  %back = tosa.transpose %r perms([0, 2, 3, 1]) : (tensor<1x3x2x2xi8>) -> tensor<1x2x2x3xi8>
  func.return %back : tensor<1x2x2x3xi8>
}

// -----

// An identity transpose goes; one that only moves size-1 axes is a reshape.
// CHECK-LABEL: func.func @identity_and_unit_axes
// CHECK-NOT: tosa.transpose
// CHECK: %[[S:.*]] = tosa.const_shape  values(dense<[1, 4, 1, 1]> : tensor<4xindex>)
// CHECK: %[[U:.*]] = tosa.reshape %y, %[[S]] : (tensor<1x1x1x4xi8>, !tosa.shape<4>) -> tensor<1x4x1x1xi8>
// CHECK: return %x, %[[U]]
func.func @identity_and_unit_axes(%x: tensor<1x2x3xi8>, %y: tensor<1x1x1x4xi8>) -> (tensor<1x2x3xi8>, tensor<1x4x1x1xi8>) {
  %i = tosa.transpose %x perms([0, 1, 2]) : (tensor<1x2x3xi8>) -> tensor<1x2x3xi8>
  %u = tosa.transpose %y perms([0, 3, 1, 2]) : (tensor<1x1x1x4xi8>) -> tensor<1x4x1x1xi8>
  func.return %i, %u : tensor<1x2x3xi8>, tensor<1x4x1x1xi8>
}
