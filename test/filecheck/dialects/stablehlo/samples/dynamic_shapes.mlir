// Dynamic batch dimensions: verifiers treat `?` as compatible with any size.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: func.func @dynamic(%arg0: tensor<?x4xf32>, %arg1: tensor<4x8xf32>) -> tensor<?x8xf32>
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
func.func @dynamic(%arg0: tensor<?x4xf32>, %arg1: tensor<4x8xf32>) -> tensor<?x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
  %1 = stablehlo.tanh %0 : tensor<?x8xf32>
  %2 = stablehlo.add %1, %0 : tensor<?x8xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<?x8xf32>) -> tensor<?x8x!quant.uniform<i8:f32, 0.1>>
  %4 = stablehlo.uniform_dequantize %3 : (tensor<?x8x!quant.uniform<i8:f32, 0.1>>) -> tensor<?x8xf32>
  return %4 : tensor<?x8xf32>
}
