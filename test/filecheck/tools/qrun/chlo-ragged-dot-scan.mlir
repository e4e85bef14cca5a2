// chlo.ragged_dot in its three modes and chlo.scan, run by the interpreter; the
// expected values are worked out by hand (and test_ragged_dot_scan.py checks the same
// semantics against JAX's).
// RUN: qrun %s | FileCheck %s

// CHECK: PASS: @ragged_rows
// CHECK: PASS: @ragged_contraction
// CHECK: PASS: @ragged_batch
// CHECK: PASS: @scan_running_sum_and_max
// CHECK: 4 passed, 0 failed

// Rows 0-1 use the first rhs (doubling), row 2 the second (negating); row 3 is in no group.
func.func @ragged_rows() {
  %lhs = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi32>
  %rhs = stablehlo.constant dense<[[[2, 0], [0, 2]], [[-1, 0], [0, -1]]]> : tensor<2x2x2xi32>
  %sizes = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<4x2xi32>, tensor<2x2x2xi32>, tensor<2xi64>) -> tensor<4x2xi32>
  check.expect_eq_const %0, dense<[[2, 4], [6, 8], [-5, -6], [0, 0]]> : tensor<4x2xi32>
  func.return
}

// k = 3 split into groups {0} and {1, 2}: one partial product each.
func.func @ragged_contraction() {
  %lhs = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xi32>
  %rhs = stablehlo.constant dense<[[10], [100], [1000]]> : tensor<3x1xi32>
  %sizes = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>
  } : (tensor<1x3xi32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<2x1x1xi32>
  check.expect_eq_const %0, dense<[[[10]], [[3200]]]> : tensor<2x1x1xi32>
  func.return
}

// A ragged batch dimension is a plain batched product.
func.func @ragged_batch() {
  %lhs = stablehlo.constant dense<[[[1, 2]], [[3, 4]]]> : tensor<2x1x2xi32>
  %rhs = stablehlo.constant dense<[[[1], [1]], [[2], [0]]]> : tensor<2x2x1xi32>
  %sizes = stablehlo.constant dense<[1]> : tensor<1xi32>
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0]>
  } : (tensor<2x1x2xi32>, tensor<2x2x1xi32>, tensor<1xi32>) -> tensor<2x1x1xi32>
  check.expect_eq_const %0, dense<[[[3]], [[6]]]> : tensor<2x1x1xi32>
  func.return
}

// Along dimension 1, from the end: outputs are the suffix sums and the elementwise
// max of each entry and the carry so far; the carry ends at the row sums.
func.func @scan_running_sum_and_max() {
  %xs = stablehlo.constant dense<[[1, 5, 2], [4, -1, 3]]> : tensor<2x3xi32>
  %c = stablehlo.constant dense<0> : tensor<2xi32>
  %0:3 = chlo.scan(%xs) inits(%c) dimension=1 attributes {is_reverse = true} {
  ^bb0(%x: tensor<2xi32>, %acc: tensor<2xi32>):
    %s = stablehlo.add %x, %acc : tensor<2xi32>
    %m = stablehlo.maximum %x, %acc : tensor<2xi32>
    stablehlo.return %s, %m, %s : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
  } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2xi32>)
  check.expect_eq_const %0#0, dense<[[8, 7, 2], [6, 2, 3]]> : tensor<2x3xi32>
  check.expect_eq_const %0#1, dense<[[7, 5, 2], [4, 3, 3]]> : tensor<2x3xi32>
  check.expect_eq_const %0#2, dense<[8, 6]> : tensor<2xi32>
  func.return
}
