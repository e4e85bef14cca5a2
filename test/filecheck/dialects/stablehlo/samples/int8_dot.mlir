// int8 x int8 -> i32 matrix products, as integer-only inference graphs use them.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x64xi8>, tensor<64x16xi8>) -> tensor<4x16xi32>
// CHECK: stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xi8>, tensor<2x8x3xi8>) -> tensor<2x4x3xi32>
func.func @int8_matmul(%arg0: tensor<4x64xi8>, %arg1: tensor<64x16xi8>, %arg2: tensor<2x4x8xi8>, %arg3: tensor<2x8x3xi8>, %arg4: tensor<16xi32>) -> (tensor<4x16xi32>, tensor<2x4x3xi32>) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x64xi8>, tensor<64x16xi8>) -> tensor<4x16xi32>
  %1 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<16xi32>) -> tensor<4x16xi32>
  %2 = stablehlo.add %0, %1 : tensor<4x16xi32>
  %3 = stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xi8>, tensor<2x8x3xi8>) -> tensor<2x4x3xi32>
  return %2, %3 : tensor<4x16xi32>, tensor<2x4x3xi32>
}
