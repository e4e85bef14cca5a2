// The dequantize -> float op -> quantize pattern quantization tools emit and
// stablehlo-legalize-qdq-to-quantized-op rewrites; here only parsed and printed.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: %0 = stablehlo.uniform_dequantize %arg0 : (tensor<1x16x!quant.uniform<i8:f32, 3.921500e-02:-128>>) -> tensor<1x16xf32>
// CHECK: %3 = stablehlo.uniform_quantize %2 : (tensor<1x8xf32>) -> tensor<1x8x!quant.uniform<i8:f32, 0.011764706099999999:-128>>
!in = !quant.uniform<i8:f32, 0.039215:-128>
!w = !quant.uniform<i8<-127:127>:f32:1, {0.0025,0.003,0.0021,0.0018,0.004,0.0033,0.0029,0.001}>
!out = !quant.uniform<i8:f32, 0.0117647061:-128>
func.func @fc_qdq(%arg0: tensor<1x16x!in>, %arg1: tensor<16x8x!w>) -> tensor<1x8x!out> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<1x16x!in>) -> tensor<1x16xf32>
  %1 = stablehlo.uniform_dequantize %arg1 : (tensor<16x8x!w>) -> tensor<16x8xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<1x16xf32>, tensor<16x8xf32>) -> tensor<1x8xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<1x8xf32>) -> tensor<1x8x!out>
  return %3 : tensor<1x8x!out>
}
