// stablehlo-normalize-layout: NCHW convolutions and pools become NHWC (a constant kernel
// transposed at compile time), and the transposes between layers cancel or sink below
// elementwise ops, concatenations and reductions: two NCHW layers with a bias, a ReLU and
// a global average pool between them keep one transpose, at the input.
// RUN: qopt %s --split-input-file -p stablehlo-normalize-layout | FileCheck %s
// RUN: qopt %s --split-input-file -p 'stablehlo-normalize-layout{layout=nchw}' | FileCheck %s --check-prefix=NCHW
// RUN: qopt %s --split-input-file -p stablehlo-normalize-layout | qopt --split-input-file > /dev/null
// RUN: not qopt %s --split-input-file -p 'stablehlo-normalize-layout{layout=hwcn}' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: layout must be nhwc or nchw, not 'hwcn'

// CHECK-LABEL: func.func @two_layers
// CHECK:      %[[X:.*]] = stablehlo.transpose %x, dims = [0, 2, 3, 1] : (tensor<1x2x5x5xf32>) -> tensor<1x5x5x2xf32>
// CHECK:      stablehlo.constant dense<{{.*}}> : tensor<3x3x2x4xf32>
// CHECK:      stablehlo.convolution(%[[X]], %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]{{.*}} -> tensor<1x5x5x4xf32>
// CHECK:      stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<4xf32>) -> tensor<1x5x5x4xf32>
// CHECK:      stablehlo.add
// CHECK:      stablehlo.maximum {{.*}} : tensor<1x5x5x4xf32>
// CHECK:      stablehlo.convolution({{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]{{.*}} -> tensor<1x5x5x4xf32>
// CHECK:      stablehlo.reduce({{.*}} init: {{.*}}) applies stablehlo.add across dimensions = [1, 2] : (tensor<1x5x5x4xf32>, tensor<f32>) -> tensor<1x4xf32>
// CHECK-NOT:  stablehlo.transpose
// CHECK:      return
// NCHW-LABEL: func.func @two_layers
// NCHW-NOT:   stablehlo.transpose
// NCHW:       return
func.func @two_layers(%x: tensor<1x2x5x5xf32>, %b: tensor<4xf32>) -> tensor<1x4xf32> {
  %w = stablehlo.constant dense<0.5> : tensor<4x2x3x3xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x5x5xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<1x4x5x5xf32>
  %s = stablehlo.add %y, %bb : tensor<1x4x5x5xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<1x4x5x5xf32>
  %r = stablehlo.maximum %s, %zero : tensor<1x4x5x5xf32>
  %w2 = stablehlo.constant dense<0.25> : tensor<4x1x3x3xf32>
  %d = stablehlo.convolution(%r, %w2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %g = stablehlo.reduce(%d init: %init) applies stablehlo.add across dimensions = [2, 3] : (tensor<1x4x5x5xf32>, tensor<f32>) -> tensor<1x4xf32>
  func.return %g : tensor<1x4xf32>
}

// -----

// A max pool over H and W of NCHW data and a channel concatenation: both follow the
// layout, one transpose back to NCHW at the result.
// CHECK-LABEL: func.func @pool_and_concat
// CHECK:      "stablehlo.reduce_window"{{.*}}window_dimensions = array<i64: 1, 2, 2, 1>{{.*}}window_strides = array<i64: 1, 2, 2, 1>
// CHECK:      stablehlo.concatenate {{.*}}, dim = 3 : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x4xf32>
// CHECK:      stablehlo.transpose {{.*}}, dims = [0, 3, 1, 2] : (tensor<1x2x2x4xf32>) -> tensor<1x4x2x2xf32>
// CHECK-NEXT: return
func.func @pool_and_concat(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x4x2x2xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %p = "stablehlo.reduce_window"(%y, %ninf) <{window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = stablehlo.maximum %a, %c : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
  %q = "stablehlo.reduce_window"(%y, %ninf) <{window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = stablehlo.maximum %a, %c : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
  %c = stablehlo.concatenate %p, %q, dim = 1 : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32>
  func.return %c : tensor<1x4x2x2xf32>
}

// -----

// Per-axis quantized operands stay as they are (their axis would move).
// CHECK-LABEL: func.func @per_axis_stays
// CHECK-NOT: stablehlo.transpose
// CHECK: dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]
func.func @per_axis_stays(%x: tensor<1x1x3x3x!quant.uniform<i8:f32, 0.5>>, %w: tensor<2x1x1x1x!quant.uniform<i8:f32:0, {0.1, 0.2}>>) -> tensor<1x2x3x3x!quant.uniform<i32:f32:1, {0.05, 0.1}>> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x3x3x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x1x1x!quant.uniform<i8:f32:0, {0.1, 0.2}>>) -> tensor<1x2x3x3x!quant.uniform<i32:f32:1, {0.05, 0.1}>>
  func.return %y : tensor<1x2x3x3x!quant.uniform<i32:f32:1, {0.05, 0.1}>>
}
