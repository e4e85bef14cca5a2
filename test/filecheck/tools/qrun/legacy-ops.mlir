// einsum (numpy's einsum in the result type: integers wrap at its width), unary_einsum
// and cross-replica-sum over a one-replica group (the operand itself), run by the
// interpreter. Expected values are worked out by hand.
// RUN: qrun %s | FileCheck %s

// CHECK: PASS: @main
// CHECK: 1 passed, 0 failed

func.func @main() {
  %a = stablehlo.constant dense<[[100, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %b = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
  // 100*1 + 2*3 + 3*5 = 121; 100*2 + 2*4 + 3*6 = 226, which wraps to -30 in i8.
  %0 = stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi8>
  check.expect_eq_const %0, dense<[[121, -30], [49, 64]]> : tensor<2x2xi8>
  %w = stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi16>
  check.expect_eq_const %w, dense<[[121, 226], [49, 64]]> : tensor<2x2xi16>
  %f = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]> : tensor<2x3xf32>
  %1 = stablehlo.unary_einsum %f, config = "ab->b" : (tensor<2x3xf32>) -> tensor<3xf32>
  check.expect_eq_const %1, dense<[5.0, 7.0, 9.5]> : tensor<3xf32>
  %t = stablehlo.unary_einsum %f, config = "ab->ba" : (tensor<2x3xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %t, dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.5]]> : tensor<3x2xf32>
  %2 = "stablehlo.cross-replica-sum"(%1) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %2, dense<[5.0, 7.0, 9.5]> : tensor<3xf32>
  return
}
