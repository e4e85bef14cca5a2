// The forms StableHLO's testdata (as JAX exports it) writes, run as shipped:
// quantized constants with `value` in the attribute dictionary, convolution weights
// with zero point -128, and `custom_call @check.*` with an i1 result and upstream's
// tolerances. Expected values are worked out by hand in the comments.
// RUN: not qrun %s --split-input-file 2>&1 | FileCheck %s

// CHECK: PASS: @jax_convolution
// CHECK-NEXT: PASS: @check_eq_tolerances
// CHECK-NEXT: FAIL: @check_eq_is_absolute
// CHECK-NEXT: testdata-forms.mlir:50:3: error: stablehlo.custom_call failed: 1 of 1 elements differ; first at index [0]: got 100.0, expected 100.00199890136719 (tolerance 0.0001)
// CHECK-NEXT: PASS: @expect_almost_eq_and_close
// CHECK-NEXT: PASS: @dot_algorithm
// CHECK-NEXT: PASS: @quantized_nan
// CHECK-NEXT: 5 passed, 1 failed

// x = [1, 2, 3] (scale 1, zp 0); w stores [-127, -126] with zp -128, so means [1, 2].
// A width-2 window: [1*1 + 2*2, 2*1 + 3*2] = [5, 8].
func.func @jax_convolution() -> tensor<2xf32> {
  %x = stablehlo.constant() {value = dense<[[[1, 2, 3]]]> : tensor<1x1x3xi8>} : () -> tensor<1x1x3x!quant.uniform<i8:f32, 1.0>>
  %w = "stablehlo.constant"() {value = dense<[[[-127, -126]]]> : tensor<1x1x2xi8>} : () -> tensor<1x1x2x!quant.uniform<i8:f32, 1.0:-128>>
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x3x!quant.uniform<i8:f32, 1.0>>, tensor<1x1x2x!quant.uniform<i8:f32, 1.0:-128>>) -> tensor<1x1x2x!quant.uniform<i32:f32, 1.0>>
  %d = stablehlo.uniform_dequantize %c : (tensor<1x1x2x!quant.uniform<i32:f32, 1.0>>) -> tensor<1x1x2xf32>
  %r = stablehlo.reshape %d : (tensor<1x1x2xf32>) -> tensor<2xf32>
  %want = stablehlo.constant dense<[5.0, 8.0]> : tensor<2xf32>
  %ok = stablehlo.custom_call @check.eq(%want, %r) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  check.expect_eq_const %ok, dense<true> : tensor<i1>
  func.return %r : tensor<2xf32>
}

// -----

// @check.eq: integers exactly; floats within 1e-4 absolute (100.00005 is the f32
// 100.0000534, 5.3e-5 away); the result holds the outcome, in any i1 shape.
func.func @check_eq_tolerances() {
  %i = stablehlo.constant dense<[3, -4]> : tensor<2xi8>
  %a = stablehlo.constant dense<[1.0, 100.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.00005, 100.00005]> : tensor<2xf32>
  %0 = stablehlo.custom_call @check.eq(%i, %i) : (tensor<2xi8>, tensor<2xi8>) -> tensor<i1>
  %1 = stablehlo.custom_call @check.eq(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  check.expect_eq_const %1, dense<true> : tensor<2xi1>
  func.return
}

// -----

// 100.002 (the f32 100.0019989) is 2e-3 away: outside 1e-4 although relatively close.
func.func @check_eq_is_absolute() {
  %a = stablehlo.constant dense<[100.0]> : tensor<1xf32>
  %b = stablehlo.constant dense<[100.002]> : tensor<1xf32>
  %0 = stablehlo.custom_call @check.eq(%a, %b) : (tensor<1xf32>, tensor<1xf32>) -> tensor<i1>
  func.return
}

// -----

// @check.expect_almost_eq: within 1e-3 absolute (0.0005 apart); @check.expect_close:
// within 3 ULP (1.0 and the third f32 above it, 1 + 3 * 2^-23 = 1.00000036).
func.func @expect_almost_eq_and_close() {
  %a = stablehlo.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[2.0005, 1.0]> : tensor<2xf32>
  %c = stablehlo.constant dense<[2.0, 1.00000036]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_almost_eq(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%a, %c) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}

// -----

// An algorithm names a precision a device may compute in; the interpreter computes in
// the operand type: [[1, 2], [3, 4]] x [[5], [6]] = [[17], [39]].
func.func @dot_algorithm() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[5.0], [6.0]]> : tensor<2x1xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  check.expect_eq_const %0, dense<[[17.0], [39.0]]> : tensor<2x1xf32>
  func.return
}

// -----

// NaN quantizes to storage 0, as upstream's interpreter does (the testdata's 0/0 and
// NaN inputs): with zero point -128 and scale 0.5 that reads back as (0 + 128) * 0.5 = 64.
func.func @quantized_nan() {
  %x = stablehlo.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-128>>
  %s = stablehlo.bitcast_convert %q : (tensor<2x!quant.uniform<i8:f32, 0.5:-128>>) -> tensor<2xi8>
  check.expect_eq_const %s, dense<[0, -126]> : tensor<2xi8>
  %d = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32, 0.5:-128>>) -> tensor<2xf32>
  %want = stablehlo.constant dense<[64.0, 1.0]> : tensor<2xf32>
  %ok = stablehlo.custom_call @check.eq(%d, %want) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  func.return
}
