// Quantized fully connected layers: per-tensor activations, per-axis weights
// (zero points 0, as the spec requires), i32 accumulators, and the hybrid
// (weight-only) form with a float activation.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x8x!quant.uniform<i8:f32, 1.000000e-01:-2>>, tensor<8x3x!quant.uniform<i8:f32:1, {5.000000e-02,2.500000e-02,1.250000e-02}>>) -> tensor<2x3x!quant.uniform<i32:f32:1, {5.000000e-03,2.500000e-03,1.250000e-03}>>
// CHECK: stablehlo.dot_general %arg2, %arg1, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x3x!quant.uniform<i8:f32:1, {5.000000e-02,2.500000e-02,1.250000e-02}>>) -> tensor<2x3xf32>
!x = !quant.uniform<i8:f32, 0.1:-2>
!w = !quant.uniform<i8:f32:1, {0.05,0.025,0.0125}>
!acc = !quant.uniform<i32:f32:1, {0.005,0.0025,0.00125}>
!bias = !quant.uniform<i32:f32:0, {0.005,0.0025,0.00125}>
func.func @qfc(%arg0: tensor<2x8x!x>, %arg1: tensor<8x3x!w>, %arg2: tensor<2x8xf32>, %arg3: tensor<3x!bias>) -> (tensor<2x3x!acc>, tensor<2x3xf32>) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x8x!x>, tensor<8x3x!w>) -> tensor<2x3x!acc>
  %1 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<3x!bias>) -> tensor<2x3x!acc>
  %2 = stablehlo.add %0, %1 : tensor<2x3x!acc>
  %3 = stablehlo.dot_general %arg2, %arg1, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x3x!w>) -> tensor<2x3xf32>
  return %2, %3 : tensor<2x3x!acc>, tensor<2x3xf32>
}
