// Sub-channel (blockwise) types in stablehlo-legalize-quant-to-math: quantize and
// dequantize use the spec's formulas with one parameter per block, repeated over its
// block by broadcast_in_dim to <blocks x block size ...> and a reshape; data movement
// moves storage. Any other op on a sub-channel type is an error (in the -invalid file).
// RUN: qopt %s --split-input-file -p stablehlo-legalize-quant-to-math | FileCheck %s

!q = !quant.uniform<i8:f32:{0:1, 1:2}, {{0.5:1, 0.25:-2}, {2.0:3, 1.0}}>
// CHECK-LABEL: func.func @dequantize(%q: tensor<2x4xi8>) -> tensor<2x4xf32>
// CHECK-DAG: %[[ZP:.*]] = stablehlo.constant dense<{{\[\[}}1.000000e+00, -2.000000e+00], [3.000000e+00, 0.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: %[[ZPB:.*]] = stablehlo.broadcast_in_dim %[[ZP]], dims = [0, 2] : (tensor<2x2xf32>) -> tensor<2x1x2x2xf32>
// CHECK-DAG: %[[ZPS:.*]] = stablehlo.reshape %[[ZPB]] : (tensor<2x1x2x2xf32>) -> tensor<2x4xf32>
// CHECK-DAG: %[[S:.*]] = stablehlo.constant dense<{{\[\[}}5.000000e-01, 2.500000e-01], [2.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: %[[SB:.*]] = stablehlo.broadcast_in_dim %[[S]], dims = [0, 2] : (tensor<2x2xf32>) -> tensor<2x1x2x2xf32>
// CHECK-DAG: %[[SS:.*]] = stablehlo.reshape %[[SB]] : (tensor<2x1x2x2xf32>) -> tensor<2x4xf32>
// CHECK: %[[F:.*]] = stablehlo.convert %q : (tensor<2x4xi8>) -> tensor<2x4xf32>
// CHECK: %[[C:.*]] = stablehlo.subtract %[[F]], %[[ZPS]] : tensor<2x4xf32>
// CHECK: stablehlo.multiply %[[C]], %[[SS]] : tensor<2x4xf32>
func.func @dequantize(%q: tensor<2x4x!q>) -> tensor<2x4xf32> {
  %0 = stablehlo.uniform_dequantize %q : (tensor<2x4x!q>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// quant.qcast: divide by the block scales, add the block zero points, clamp, round.
// CHECK-LABEL: func.func @qcast(%x: tensor<4x2xf32>) -> tensor<4x2xi8>
// CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [0, 2] : (tensor<2x1xf32>) -> tensor<2x2x1x2xf32>
// CHECK: stablehlo.reshape %{{.*}} : (tensor<2x2x1x2xf32>) -> tensor<4x2xf32>
// CHECK: stablehlo.divide %x
// CHECK: stablehlo.round_nearest_even
// CHECK-NOT: !quant
func.func @qcast(%x: tensor<4x2xf32>) -> tensor<4x2x!quant.uniform<i8:f32:{0:2}, {{0.5}, {0.25}}>> {
  %0 = quant.qcast %x : tensor<4x2xf32> to tensor<4x2x!quant.uniform<i8:f32:{0:2}, {{0.5}, {0.25}}>>
  func.return %0 : tensor<4x2x!quant.uniform<i8:f32:{0:2}, {{0.5}, {0.25}}>>
}

// -----

// One value for every block: a splat, as for a per-tensor type.
// CHECK-LABEL: func.func @same_everywhere
// CHECK-NOT: stablehlo.reshape
// CHECK: stablehlo.constant dense<5.000000e-01> : tensor<f32>
func.func @same_everywhere(%q: tensor<2x4x!quant.uniform<i8:f32:{1:2}, {{0.5, 0.5}}>>) -> tensor<2x4xf32> {
  %0 = stablehlo.uniform_dequantize %q : (tensor<2x4x!quant.uniform<i8:f32:{1:2}, {{0.5, 0.5}}>>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// Data movement moves storage integers whatever the parameters.
// CHECK-LABEL: func.func @transpose(%a: tensor<3x4xi8>) -> tensor<4x3xi8>
// CHECK: stablehlo.transpose %a, dims = [1, 0] : (tensor<3x4xi8>) -> tensor<4x3xi8>
func.func @transpose(%a: tensor<3x4x!quant.uniform<i8:f32:{1:2}, {{0.5:1, 0.25}}>>) -> tensor<4x3x!quant.uniform<i8:f32:{0:2}, {{0.5:1}, {0.25}}>> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<3x4x!quant.uniform<i8:f32:{1:2}, {{0.5:1, 0.25}}>>) -> tensor<4x3x!quant.uniform<i8:f32:{0:2}, {{0.5:1}, {0.25}}>>
  func.return %0 : tensor<4x3x!quant.uniform<i8:f32:{0:2}, {{0.5:1}, {0.25}}>>
}
