// canonicalize on TOSA ops: identity rescales and full-range clamps go, a
// centring rescale merges into the next one, constants fold through
// reshape/transpose. test/unit/transforms/canonicalization/test_tosa.py checks that no bit changes.
// RUN: qopt %s --split-input-file -p canonicalize | FileCheck %s
// The patterns reach a true fixed point (MLIR's test-convergence, as upstream runs it):
// RUN: qopt %s --split-input-file --pass-pipeline='builtin.module(func.func(canonicalize{test-convergence}))' | FileCheck %s

// CHECK-LABEL: func.func @identity_rescale
// CHECK-NEXT: return %x, %x : tensor<4xi8>, tensor<4xi8>
func.func @identity_rescale(%x: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>) {
  %one = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s30 = tosa.const  values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %z5 = tosa.const  values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.rescale %x, %one, %s30, %z5, %z5 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %1 = tosa.clamp %x min_val(-128 : i8) max_val(127 : i8) : (tensor<4xi8>) -> tensor<4xi8>
  func.return %0, %1 : tensor<4xi8>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @merge_centring
// CHECK: %[[R:.*]] = tosa.rescale %x, %m, %s, %z5, %z3 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
// CHECK-NOT: tosa.rescale
// CHECK: return %[[R]]
func.func @merge_centring(%x: tensor<4xi8>) -> tensor<4xi8> {
  %one = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s30 = tosa.const  values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %z5 = tosa.const  values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
  %z0 = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %c = tosa.rescale %x, %one, %s30, %z5, %z0 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4xi32>
  %m = tosa.const  values(dense<1717986918> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const  values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %z3 = tosa.const  values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %c, %m, %s, %z0, %z3 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return %r : tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @fold_constants
// CHECK-NEXT: %[[R:.*]] = tosa.const  values(dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>) : () -> tensor<3x2xi8>
// CHECK-NEXT: %[[T:.*]] = tosa.const  values(dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi8>) : () -> tensor<3x2xi8>
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @fold_constants() -> (tensor<3x2xi8>, tensor<3x2xi8>) {
  %k = tosa.const  values(dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>) : () -> tensor<2x3xi8>
  %sh = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %rs = tosa.reshape %k, %sh : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<3x2xi8>
  %tr = tosa.transpose %k perms([1, 0]) : (tensor<2x3xi8>) -> tensor<3x2xi8>
  func.return %rs, %tr : tensor<3x2xi8>, tensor<3x2xi8>
}

// -----

// Must not fire: scale 1 but zero points differ; a centring rescale into a
// type too narrow to hold x - zp (it may clamp); a clamp that clamps.
// CHECK-LABEL: func.func @keep
// CHECK-COUNT-3: tosa.rescale
// CHECK: tosa.clamp
func.func @keep(%x: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi8>) {
  %one = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s30 = tosa.const  values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %z5 = tosa.const  values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
  %z6 = tosa.const  values(dense<6> : tensor<1xi8>) : () -> tensor<1xi8>
  %z0 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.rescale %x, %one, %s30, %z5, %z6 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %c = tosa.rescale %x, %one, %s30, %z5, %z0 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %m = tosa.const  values(dense<1717986918> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const  values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %c, %m, %s, %z0, %z0 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %cl = tosa.clamp %x min_val(-100 : i8) max_val(127 : i8) : (tensor<4xi8>) -> tensor<4xi8>
  func.return %0, %r, %cl : tensor<4xi8>, tensor<4xi8>, tensor<4xi8>
}

// -----

// Transpose chains: NHWC -> NCHW -> NHWC cancels; two transposes compose into
// one: out[i] = x[first[outer[i]]], so [0, 3, 2, 1] after [0, 3, 1, 2] is [0, 2, 1, 3].
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = tosa.transpose %y perms([0, 2, 1, 3])
// CHECK-NEXT: return %x, %[[T]]
func.func @transposes(%x: tensor<1x4x5x3xi32>, %y: tensor<1x4x5x3xi8>) -> (tensor<1x4x5x3xi32>, tensor<1x5x4x3xi8>) {
  %a = tosa.transpose %x perms([0, 3, 1, 2]) : (tensor<1x4x5x3xi32>) -> tensor<1x3x4x5xi32>
  %b = tosa.transpose %a perms([0, 2, 3, 1]) : (tensor<1x3x4x5xi32>) -> tensor<1x4x5x3xi32>
  %c = tosa.transpose %y perms([0, 3, 1, 2]) : (tensor<1x4x5x3xi8>) -> tensor<1x3x4x5xi8>
  %d = tosa.transpose %c perms([0, 3, 2, 1]) : (tensor<1x3x4x5xi8>) -> tensor<1x5x4x3xi8>
  func.return %b, %d : tensor<1x4x5x3xi32>, tensor<1x5x4x3xi8>
}
