// Integers narrower than a byte (and other odd widths) wrap like MLIR's APInt and
// StableHLO's integer arithmetic: literals too large for a signed type read as
// their two's-complement bits, and results wrap to the width.
// RUN: qrun %s | FileCheck %s
// RUN: qopt %s | FileCheck %s --check-prefix=PRINT

// CHECK: PASS: @arithmetic_wraps
// PRINT-LABEL: @arithmetic_wraps
// PRINT: stablehlo.constant dense<[7, -8, 5, -1]> : tensor<4xi4>
func.func @arithmetic_wraps() {
  %a = stablehlo.constant dense<[7, -8, 5, 15]> : tensor<4xi4>
  %b = stablehlo.constant dense<[1, -1, 5, 1]> : tensor<4xi4>
  %c = stablehlo.add %a, %b : tensor<4xi4>
  check.expect_eq_const %c, dense<[-8, 7, -6, 0]> : tensor<4xi4>
  %d = stablehlo.multiply %a, %b : tensor<4xi4>
  check.expect_eq_const %d, dense<[7, -8, -7, -1]> : tensor<4xi4>
  %g = stablehlo.negate %a : tensor<4xi4>
  check.expect_eq_const %g, dense<[-7, -8, -5, 1]> : tensor<4xi4>
  func.return
}

// CHECK: PASS: @unsigned_and_converts
func.func @unsigned_and_converts() {
  %e = stablehlo.constant dense<[15, 0, 8, 1]> : tensor<4xui4>
  %f = stablehlo.add %e, %e : tensor<4xui4>
  check.expect_eq_const %f, dense<[14, 0, 0, 2]> : tensor<4xui4>
  %h = stablehlo.convert %e : (tensor<4xui4>) -> tensor<4xi4>
  check.expect_eq_const %h, dense<[-1, 0, -8, 1]> : tensor<4xi4>
  %w = stablehlo.constant dense<[2047, -2048]> : tensor<2xi12>
  %one = stablehlo.constant dense<1> : tensor<2xi12>
  %x = stablehlo.add %w, %one : tensor<2xi12>
  check.expect_eq_const %x, dense<[-2048, -2047]> : tensor<2xi12>
  func.return
}

// CHECK: PASS: @scalar_literal
// PRINT-LABEL: @scalar_literal
// PRINT: stablehlo.constant dense<-7> : tensor<i4>
func.func @scalar_literal() {
  %c = stablehlo.constant dense<9> : tensor<i4>
  check.expect_eq_const %c, dense<-7> : tensor<i4>
  func.return
}
