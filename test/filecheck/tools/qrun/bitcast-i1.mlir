// bitcast_convert to and from i1 treats each i1 as one bit, element k being bit k
// of the wider value (the spec's bits semantics; little-endian bit order): it
// used to view numpy's one-byte booleans and fail with an internal error.
// RUN: qrun %s --split-input-file | FileCheck %s
// CHECK: PASS: @bits_to_i8
// CHECK: PASS: @i8_to_bits
// CHECK: PASS: @f32_to_bits
// CHECK: 3 passed, 0 failed

func.func @bits_to_i8() {
  %bits = stablehlo.constant dense<[true, false, false, false, false, false, false, true]> : tensor<8xi1>
  %x = stablehlo.bitcast_convert %bits : (tensor<8xi1>) -> tensor<i8>
  check.expect_eq_const %x, dense<-127> : tensor<i8>
  func.return
}

// -----

func.func @i8_to_bits() {
  %x = stablehlo.constant dense<[5, -128]> : tensor<2xi8>
  %bits = stablehlo.bitcast_convert %x : (tensor<2xi8>) -> tensor<2x8xi1>
  check.expect_eq_const %bits, dense<[[true, false, true, false, false, false, false, false], [false, false, false, false, false, false, false, true]]> : tensor<2x8xi1>
  func.return
}

// -----

func.func @f32_to_bits() {
  // 1.0f is 0x3F800000: bits 23..29 set, and nothing else.
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  %bits = stablehlo.bitcast_convert %x : (tensor<f32>) -> tensor<32xi1>
  %back = stablehlo.bitcast_convert %bits : (tensor<32xi1>) -> tensor<i32>
  check.expect_eq_const %back, dense<1065353216> : tensor<i32>
  %b23 = stablehlo.slice %bits [23:30] : (tensor<32xi1>) -> tensor<7xi1>
  check.expect_eq_const %b23, dense<true> : tensor<7xi1>
  %low = stablehlo.slice %bits [0:23] : (tensor<32xi1>) -> tensor<23xi1>
  check.expect_eq_const %low, dense<false> : tensor<23xi1>
  func.return
}
