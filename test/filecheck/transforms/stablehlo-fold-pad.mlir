// stablehlo-fold-pad: a zero pad of the spatial dimensions before a convolution (the
// asymmetric "SAME" padding exporters write as a separate Pad) becomes the
// convolution's padding, added to what it had; on a quantized input the pad value must
// be the zero point. A pad of the channels, by another value, or read twice stays.
// RUN: qopt %s --split-input-file -p stablehlo-fold-pad | FileCheck %s
// RUN: qopt %s --split-input-file -p stablehlo-fold-pad | qopt --split-input-file > /dev/null

// CHECK-LABEL: func.func @same_padding
// CHECK-NOT: stablehlo.pad
// CHECK: stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[\[}}0, 1], [1, 2]]}
func.func @same_padding(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x3x4x4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %x, %z, low = [0, 0, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x6x6x2xf32>, tensor<f32>) -> tensor<1x7x7x2xf32>
  %y = stablehlo.convolution(%p, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x7x7x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %y : tensor<1x3x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @quantized_zero_point
// CHECK-NOT: stablehlo.pad
// CHECK: stablehlo.convolution(%x, %w) {{.*}} pad = {{\[\[}}1, 1], [1, 1]]
func.func @quantized_zero_point(%x: tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-3>>, %w: tensor<3x3x1x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0:2>> {
  %z = stablehlo.constant() <{value = dense<-3> : tensor<i8>}> : () -> tensor<!quant.uniform<i8:f32, 0.5:-3>>
  %p = stablehlo.pad %x, %z, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-3>>, tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x6x6x1x!quant.uniform<i8:f32, 0.5:-3>>
  %y = stablehlo.convolution(%p, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x1x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x3x1x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0:2>>
  func.return %y : tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0:2>>
}

// -----

// CHECK-LABEL: func.func @stays
// CHECK-COUNT-3: stablehlo.pad
func.func @stays(%x: tensor<1x4x4x2xf32>, %w: tensor<1x1x2x2xf32>, %w3: tensor<1x1x3x2xf32>) -> (tensor<1x5x5x2xf32>, tensor<1x4x4x2xf32>, tensor<1x5x5x2xf32>) {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p1 = stablehlo.pad %x, %one, low = [0, 1, 0, 0], high = [0, 0, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x5x5x2xf32>
  %y1 = stablehlo.convolution(%p1, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x5x5x2xf32>
  %p2 = stablehlo.pad %x, %z, low = [0, 0, 0, 1], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x3xf32>
  %y2 = stablehlo.convolution(%p2, %w3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<1x4x4x2xf32>
  %p3 = stablehlo.pad %x, %z, low = [0, 1, 0, 0], high = [0, 0, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x5x5x2xf32>
  %y3 = stablehlo.convolution(%p3, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x5x5x2xf32>
  %s = stablehlo.add %y3, %p3 : tensor<1x5x5x2xf32>
  func.return %y1, %y2, %s : tensor<1x5x5x2xf32>, tensor<1x4x4x2xf32>, tensor<1x5x5x2xf32>
}
