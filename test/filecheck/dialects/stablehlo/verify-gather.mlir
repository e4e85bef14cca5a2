// gather and dynamic_gather in upstream StableHLO's words and order (verifyGather,
// inferGatherOp); both are checked by upstream's type inference, so MLIR follows each
// failed check with "failed to infer returned types".
// RUN: qopt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK-LABEL: func.func @rows
func.func @rows(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
    collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.gather' op expects offset_dims to not repeat, got: [1, 1]}}
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 1],
    start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.gather' op Expects that for each dim in collapsed_slice_dims, slice_sizes[dim] should be <= 1, but got 2}}
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
    collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 2, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.dynamic_gather' op inferred type(s) 'tensor<2x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  %0 = "stablehlo.dynamic_gather"(%x, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
    collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}
    : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
