// qrun verifies what it runs (SSA dominance included) and reports hostile programs
// as located errors; a large splat runs without being expanded element by element.
// RUN: not qrun %s --split-input-file 2>&1 | FileCheck %s

// CHECK: hostile-input.mlir:[[# @LINE + 2]]:3: error: 'stablehlo.add' op operand #0 does not dominate this use
func.func @use_before_def() -> tensor<2xi8> {
  %1 = stablehlo.add %0, %0 : tensor<2xi8>
  %0 = stablehlo.constant dense<1> : tensor<2xi8>
  func.return %1 : tensor<2xi8>
}

// -----

// CHECK: hostile-input.mlir:[[# @LINE + 2]]:33: error: integer literal 300 does not fit in i8
func.func @too_big() -> tensor<2xi8> {
  %0 = stablehlo.constant dense<300> : tensor<2xi8>
  func.return %0 : tensor<2xi8>
}

// -----

// CHECK: PASS: @large_splat
func.func @large_splat() -> tensor<i1> {
  %0 = stablehlo.constant dense<3> : tensor<16777216xi8>
  %1 = stablehlo.constant dense<3> : tensor<i8>
  %2 = stablehlo.reduce(%0 init: %1) applies stablehlo.maximum across dimensions = [0] : (tensor<16777216xi8>, tensor<i8>) -> tensor<i8>
  check.expect_eq_const %2, dense<3> : tensor<i8>
  %t = stablehlo.constant dense<true> : tensor<i1>
  func.return %t : tensor<i1>
}

// -----

// CHECK: FAIL: @complex
// CHECK-NEXT: hostile-input.mlir:[[# @LINE + 2]]:3: error: unsupported element type complex<f16> (complex<f32> and complex<f64> run)
func.func @complex() -> tensor<2xcomplex<f16>> {
  %0 = stablehlo.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f16>>
  func.return %0 : tensor<2xcomplex<f16>>
}

// -----

// A type may declare more elements than the interpreter holds; computing such a value
// is an error at the op.
// CHECK: FAIL: @too_large_to_compute
// CHECK-NEXT: hostile-input.mlir:[[# @LINE + 2]]:3: error: the interpreter holds at most 2^31 elements per value, not tensor<65536x65536xi8>
func.func @too_large_to_compute() {
  %a = stablehlo.iota dim = 0 : tensor<65536x65536xi8>
  func.return
}

// CHECK: 1 passed, 4 failed
