// scatter, select_and_scatter and reverse, with values worked out by hand from the spec.
// RUN: qrun %s | FileCheck %s

// CHECK: PASS: @scatter_add_skips_out_of_bounds
// CHECK: PASS: @scatter_rows_replace
// CHECK: PASS: @select_and_scatter_max_pool_grad
// CHECK: PASS: @select_and_scatter_overlapping
// CHECK: PASS: @reverse
// CHECK: 5 passed, 0 failed

// Updates 1 and 3 both land on index 1 (added), 2 on index 3; index 9 is out of bounds.
func.func @scatter_add_skips_out_of_bounds() {
  %x = stablehlo.constant dense<0> : tensor<5xi32>
  %idx = stablehlo.constant dense<[[1], [3], [1], [9]]> : tensor<4x1xi64>
  %upd = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %r = "stablehlo.scatter"(%x, %idx, %upd) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xi32>, tensor<4x1xi64>, tensor<4xi32>) -> tensor<5xi32>
  check.expect_eq_const %r, dense<[0, 4, 0, 2, 0]> : tensor<5xi32>
  check.expect_eq_const %x, dense<0> : tensor<5xi32>
  func.return
}

// Whole rows: update row 0 goes to row 2, update row 1 to row 0; the body keeps the update.
func.func @scatter_rows_replace() {
  %x = stablehlo.constant dense<0> : tensor<3x2xi32>
  %idx = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %upd = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %r = "stablehlo.scatter"(%x, %idx, %upd) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = true} : (tensor<3x2xi32>, tensor<2x1xi32>, tensor<2x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %r, dense<[[3, 4], [0, 0], [1, 2]]> : tensor<3x2xi32>
  func.return
}

// Max-pool gradient: windows [1, 3], [2, 5], [4, 0] select positions 1, 3, 4.
func.func @select_and_scatter_max_pool_grad() {
  %x = stablehlo.constant dense<[1, 3, 2, 5, 4, 0]> : tensor<6xi32>
  %src = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %zero) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<6xi32>, tensor<3xi32>, tensor<i32>) -> tensor<6xi32>
  check.expect_eq_const %r, dense<[0, 10, 0, 20, 30, 0]> : tensor<6xi32>
  func.return
}

// Overlapping windows [1, 5], [5, 2], [2, 4] select 1, 1, 3: position 1 gets 1 + 2.
func.func @select_and_scatter_overlapping() {
  %x = stablehlo.constant dense<[1.0, 5.0, 2.0, 4.0]> : tensor<4xf32>
  %src = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %zero) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 1>} : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %r, dense<[0.0, 3.0, 0.0, 3.0]> : tensor<4xf32>
  func.return
}

func.func @reverse() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r1 = stablehlo.reverse %x, dims = [1] : tensor<2x3xi32>
  %r01 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xi32>
  check.expect_eq_const %r1, dense<[[3, 2, 1], [6, 5, 4]]> : tensor<2x3xi32>
  check.expect_eq_const %r01, dense<[[6, 5, 4], [3, 2, 1]]> : tensor<2x3xi32>
  func.return
}
