// Numerically stable softmax over the last axis.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: applies stablehlo.maximum across dimensions = [1]
// CHECK: stablehlo.exponential %{{.*}} : tensor<2x10xf32>
// CHECK: applies stablehlo.add across dimensions = [1]
func.func @softmax(%arg0: tensor<2x10xf32>) -> tensor<2x10xf32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<2xf32>) -> tensor<2x10xf32>
  %2 = stablehlo.subtract %arg0, %1 : tensor<2x10xf32>
  %3 = stablehlo.exponential %2 : tensor<2x10xf32>
  %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
  %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xf32>) -> tensor<2x10xf32>
  %6 = stablehlo.divide %3, %5 : tensor<2x10xf32>
  return %6 : tensor<2x10xf32>
}
