// stablehlo-fold-batch-norm: a convolution's bias, then a BatchNormalization's scale and
// offset (per output channel, dimension 1 of NCHW), fold into the weights (scaled per
// output channel, kernel dimension 0) and one bias; a dense layer's per-column scale
// into its weights; a scale along another dimension stops the fold, and so does an
// intermediate read twice (after it); a convolution with only its bias is left as it is.
// RUN: qopt %s --split-input-file -p stablehlo-fold-batch-norm | FileCheck %s
// RUN: qopt %s --split-input-file -p stablehlo-fold-batch-norm | qopt --split-input-file > /dev/null

// CHECK-LABEL: func.func @conv_bias_bn
// CHECK: %[[W:.*]] = stablehlo.constant dense<[{{\[\[\[}}2.000000e+00]]], {{\[\[\[}}-6.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT: %[[Y:.*]] = stablehlo.convolution(%x, %[[W]])
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant dense<[2.500000e+00, -1.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [1] : (tensor<2xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.add %[[Y]], %[[B]] : tensor<1x2x3x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @conv_bias_bn(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = stablehlo.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %b = stablehlo.constant dense<[1.0, 0.5]> : tensor<2xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %y1 = stablehlo.add %y, %bb : tensor<1x2x3x3xf32>
  %k = stablehlo.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %kb = stablehlo.broadcast_in_dim %k, dims = [1] : (tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %y2 = stablehlo.multiply %kb, %y1 : tensor<1x2x3x3xf32>
  %c = stablehlo.constant dense<[0.5, 0.5]> : tensor<2xf32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %y3 = stablehlo.add %y2, %cb : tensor<1x2x3x3xf32>
  func.return %y3 : tensor<1x2x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @dense_scale
// CHECK: %[[W:.*]] = stablehlo.constant dense<{{\[\[}}2.000000e+00, 1.500000e+00]]> : tensor<1x2xf32>
// CHECK-NEXT: %[[Y:.*]] = stablehlo.dot_general %x, %[[W]]
// CHECK-NEXT: return %[[Y]]
func.func @dense_scale(%x: tensor<4x1xf32>) -> tensor<4x2xf32> {
  %w = stablehlo.constant dense<[[1.0, 3.0]]> : tensor<1x2xf32>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  %k = stablehlo.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %kb = stablehlo.broadcast_in_dim %k, dims = [1] : (tensor<2xf32>) -> tensor<4x2xf32>
  %y2 = stablehlo.multiply %y, %kb : tensor<4x2xf32>
  func.return %y2 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func.func @other_dimension
// CHECK: stablehlo.multiply
func.func @other_dimension(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = stablehlo.constant dense<1.0> : tensor<2x1x1x1xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %k = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %kb = stablehlo.broadcast_in_dim %k, dims = [2] : (tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %y2 = stablehlo.multiply %y, %kb : tensor<1x2x2x2xf32>
  func.return %y2 : tensor<1x2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @read_twice
// CHECK: %[[W:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<2x1x1x1xf32>
// CHECK-NEXT: %[[Y:.*]] = stablehlo.convolution(%x, %[[W]])
// CHECK-NEXT: stablehlo.add %[[Y]], %[[Y]]
func.func @read_twice(%x: tensor<1x1x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = stablehlo.constant dense<1.0> : tensor<2x1x1x1xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %k = stablehlo.constant dense<2.0> : tensor<1x2x2x2xf32>
  %y2 = stablehlo.multiply %y, %k : tensor<1x2x2x2xf32>
  %y3 = stablehlo.add %y2, %y2 : tensor<1x2x2x2xf32>
  func.return %y2, %y3 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @bias_only
// CHECK: %w = stablehlo.constant dense<1.000000e+00>
// CHECK: stablehlo.convolution(%x, %w)
func.func @bias_only(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = stablehlo.constant dense<1.0> : tensor<2x1x1x1xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %b = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %y1 = stablehlo.add %y, %bb : tensor<1x2x2x2xf32>
  func.return %y1 : tensor<1x2x2x2xf32>
}
