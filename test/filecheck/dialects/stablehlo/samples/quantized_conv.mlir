// A quantized convolution with per-axis (per output channel) int8 weights, as
// TF/JAX quantizers emit it: quantize the input, convolve into an i32
// accumulator type, requantize, dequantize.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: stablehlo.convolution(%0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4x!quant.uniform<i8:f32, 2.000000e-02:-5>>, tensor<3x3x4x2x!quant.uniform<i8<-127:127>:f32:3, {1.000000e-02,5.000000e-03}>>) -> tensor<1x4x4x2x!quant.uniform<i32:f32:3, {2.000000e-04,1.000000e-04}>>
!act = !quant.uniform<i8:f32, 0.02:-5>
!wgt = !quant.uniform<i8<-127:127>:f32:3, {0.01,0.005}>
!acc = !quant.uniform<i32:f32:3, {2.0e-4,1.0e-4}>
!out = !quant.uniform<i8:f32, 0.05:3>
func.func @qconv(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x2x!wgt>) -> tensor<1x4x4x2xf32> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4x!act>
  %1 = stablehlo.convolution(%0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4x!act>, tensor<3x3x4x2x!wgt>) -> tensor<1x4x4x2x!acc>
  %2 = stablehlo.uniform_quantize %1 : (tensor<1x4x4x2x!acc>) -> tensor<1x4x4x2x!out>
  %3 = stablehlo.uniform_dequantize %2 : (tensor<1x4x4x2x!out>) -> tensor<1x4x4x2xf32>
  return %3 : tensor<1x4x4x2xf32>
}

// Depthwise: feature_group_count = input channels, weights [kh, kw, 1, C*M].
// CHECK-LABEL: func.func @qdepthwise
// CHECK: feature_group_count = 4 : i64
func.func @qdepthwise(%arg0: tensor<1x6x6x4x!act>, %arg1: tensor<3x3x1x4x!quant.uniform<i8<-127:127>:f32:3, {0.01,0.02,0.03,0.04}>>) -> tensor<1x4x4x4x!quant.uniform<i32:f32:3, {2.0e-4,4.0e-4,6.0e-4,8.0e-4}>> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x6x6x4x!act>, tensor<3x3x1x4x!quant.uniform<i8<-127:127>:f32:3, {0.01,0.02,0.03,0.04}>>) -> tensor<1x4x4x4x!quant.uniform<i32:f32:3, {2.0e-4,4.0e-4,6.0e-4,8.0e-4}>>
  return %0 : tensor<1x4x4x4x!quant.uniform<i32:f32:3, {2.0e-4,4.0e-4,6.0e-4,8.0e-4}>>
}
