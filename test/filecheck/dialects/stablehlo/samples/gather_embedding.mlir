// An embedding lookup: gather rows of a table by token ids (generic form, as
// upstream prints gather), then a dynamic_slice and a pad.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<1000x64xf32>, tensor<2x7x1xi32>) -> tensor<2x7x64xf32>
func.func @embed(%arg0: tensor<1000x64xf32>, %arg1: tensor<2x7x1xi32>, %arg2: tensor<i32>) -> tensor<2x8x64xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<1000x64xf32>, tensor<2x7x1xi32>) -> tensor<2x7x64xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.dynamic_slice %0, %c, %arg2, %c, sizes = [2, 6, 64] : (tensor<2x7x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x6x64xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %2 = stablehlo.pad %1, %cst, low = [0, 1, 0], high = [0, 1, 0], interior = [0, 0, 0] : (tensor<2x6x64xf32>, tensor<f32>) -> tensor<2x8x64xf32>
  return %2 : tensor<2x8x64xf32>
}
