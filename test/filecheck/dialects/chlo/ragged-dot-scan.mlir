// chlo.ragged_dot and chlo.scan print as mlir-opt prints them (ragged_dot has no custom
// form; scan's printer puts two spaces before its region) and read back the same. Their
// verifiers' messages are in ragged-dot-scan-invalid.mlir.
// RUN: qopt %s --split-input-file | FileCheck %s
// RUN: qopt %s --split-input-file | qopt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @rows_per_batch
// CHECK: "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>}> : (tensor<2x11x5xf32>, tensor<3x2x5x7xf32>, tensor<2x3xi64>) -> tensor<2x11x7xf32>
func.func @rows_per_batch(%lhs: tensor<2x11x5xf32>, %rhs: tensor<3x2x5x7xf32>, %sizes: tensor<2x3xi64>) -> tensor<2x11x7xf32> {
  // The fields in any order, and a trailing comma, as upstream's struct parser takes them.
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      rhs_group_dimensions = [0], lhs_ragged_dimensions = [1],
      lhs_batching_dimensions = [0], rhs_batching_dimensions = [1],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2],
    >,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]
  } : (tensor<2x11x5xf32>, tensor<3x2x5x7xf32>, tensor<2x3xi64>) -> tensor<2x11x7xf32>
  func.return %0 : tensor<2x11x7xf32>
}

// -----

// A ragged contraction puts the group dimension first in the result; the empty lists
// are not printed.
// CHECK-LABEL: func.func @contraction
// CHECK: ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>}> : (tensor<11x6xf32>, tensor<6x7xf32>, tensor<3xi32>) -> tensor<3x11x7xf32>
func.func @contraction(%lhs: tensor<11x6xf32>, %rhs: tensor<6x7xf32>, %sizes: tensor<3xi32>) -> tensor<3x11x7xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<11x6xf32>, tensor<6x7xf32>, tensor<3xi32>) -> tensor<3x11x7xf32>
  func.return %0 : tensor<3x11x7xf32>
}

// -----

// CHECK-LABEL: func.func @scan
// CHECK:      %0:3 = chlo.scan(%xs) inits (%c) dimension=1  attributes {is_associative = true, is_reverse = true, scan_dim_size = 4 : i64} {
// CHECK-NEXT: ^bb0(%x: tensor<2xf32>, %acc: tensor<2xf32>):
// CHECK:        stablehlo.return %s, %m, %s : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: } : (tensor<2x4xf32>, tensor<2xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xf32>)
// CHECK:      %1 = chlo.scan(%xs) inits () dimension=0  {
// CHECK:      } : (tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @scan(%xs: tensor<2x4xf32>, %c: tensor<2xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0:3 = chlo.scan (%xs) inits (%c) dimension = 1 attributes {scan_dim_size = 4 : i64, is_reverse = true, is_associative = true} {
  ^bb0(%x: tensor<2xf32>, %acc: tensor<2xf32>):
    %s = stablehlo.add %x, %acc : tensor<2xf32>
    %m = stablehlo.maximum %x, %acc : tensor<2xf32>
    stablehlo.return %s, %m, %s : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  } : (tensor<2x4xf32>, tensor<2xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xf32>)
  %1 = chlo.scan(%xs) inits () dimension=0 {
  ^bb0(%x: tensor<4xf32>):
    stablehlo.return %x : tensor<4xf32>
  } : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %0#0, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}
