// The dynamic-shape ops take shapes, sizes and paddings from operand values.
// Expected values are worked out by hand from the spec.
// RUN: not qrun %s 2>&1 | FileCheck %s

// CHECK: PASS: @dynamic_ops
// CHECK: FAIL: @shape_disagrees_with_type
// CHECK-NEXT: dynamic.mlir:[[# @LINE + 50]]:3: error: 'stablehlo.dynamic_reshape' computes shape 2x3 but its result type is tensor<3x2xi32>
// CHECK: 1 passed, 1 failed

func.func @dynamic_ops() {
  %s23 = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %iota = stablehlo.dynamic_iota %s23, dim = 1 : (tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const %iota, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  %six = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %s32 = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %reshaped = stablehlo.dynamic_reshape %six, %s32 : (tensor<6xi32>, tensor<2xi64>) -> tensor<3x2xi32>
  check.expect_eq_const %reshaped, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %row = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %s22 = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %bcast = stablehlo.dynamic_broadcast_in_dim %row, %s22, dims = [1] : (tensor<2xi32>, tensor<2xi64>) -> tensor<2x2xi32>
  check.expect_eq_const %bcast, dense<[[1, 2], [1, 2]]> : tensor<2x2xi32>
  // low 1, high 2, interior 1: [pad, 1, pad, 2, pad, pad]
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<[1]> : tensor<1xi64>
  %two = stablehlo.constant dense<[2]> : tensor<1xi64>
  %padded = stablehlo.dynamic_pad %row, %zero, %one, %two, %one : (tensor<2xi32>, tensor<i32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<6xi32>
  check.expect_eq_const %padded, dense<[0, 1, 0, 2, 0, 0]> : tensor<6xi32>
  // start 3 is clamped to 2 so the update fits.
  %four = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %nines = stablehlo.constant dense<9> : tensor<2xi32>
  %start = stablehlo.constant dense<3> : tensor<i64>
  %updated = stablehlo.dynamic_update_slice %four, %nines, %start : (tensor<4xi32>, tensor<2xi32>, tensor<i64>) -> tensor<4xi32>
  check.expect_eq_const %updated, dense<[1, 2, 9, 9]> : tensor<4xi32>
  %size = stablehlo.get_dimension_size %iota, dim = 0 : (tensor<2x3xi32>) -> tensor<i32>
  check.expect_eq_const %size, dense<2> : tensor<i32>
  // elements 1 and 3 of 0..5: [1:5:2]
  %range = stablehlo.iota dim = 0 : tensor<6xi32>
  %b = stablehlo.constant dense<[1]> : tensor<1xi64>
  %e = stablehlo.constant dense<[5]> : tensor<1xi64>
  %sliced = stablehlo.real_dynamic_slice %range, %b, %e, %two : (tensor<6xi32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi32>
  check.expect_eq_const %sliced, dense<[1, 3]> : tensor<2xi32>
  // rows 2 and 0
  %m = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %gi = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %sizes = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %g = "stablehlo.dynamic_gather"(%m, %gi, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<3x2xi32>, tensor<2x1xi64>, tensor<2xi64>) -> tensor<2x2xi32>
  check.expect_eq_const %g, dense<[[5, 6], [1, 2]]> : tensor<2x2xi32>
  func.return
}

func.func @shape_disagrees_with_type() {
  %six = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  // A computed shape: a constant one that disagrees is a verifier error (output shape
  // [2, 3] is incompatible with return type of operation 'tensor<3x2xi32>').
  %s32 = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %s23 = stablehlo.reverse %s32, dims = [0] : tensor<2xi64>
  %r = stablehlo.dynamic_reshape %six, %s23 : (tensor<6xi32>, tensor<2xi64>) -> tensor<3x2xi32>
  func.return
}
