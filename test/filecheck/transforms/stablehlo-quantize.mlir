// A calibrated float layer (conv + bias + ReLU + max pool) in QDQ form, then integer.
// RUN: qcalib %s --data %S/Inputs/stablehlo-quantize-calib.npz -o %t.json --quiet
// RUN: qopt %s -p 'stablehlo-quantize{calibration="%t.json"}' | FileCheck %s
// RUN: qopt %s -p 'stablehlo-quantize{calibration="%t.json"},stablehlo-legalize-qdq-to-quantized-op' | FileCheck %s --check-prefix=INT
// RUN: qopt %s -p 'stablehlo-quantize{calibration="%t.json" formula=cambricon weights=per-tensor}' | FileCheck %s --check-prefix=POW2
// RUN: echo "1:0 i16  # the convolution" > %t.qtable
// RUN: echo "9:0 float" >> %t.qtable
// RUN: qopt %s -p 'stablehlo-quantize{calibration="%t.json" qtable="%t.qtable"},stablehlo-legalize-qdq-to-quantized-op' | FileCheck %s --check-prefix=QTABLE
// RUN: echo "4:0 i12" > %t.bad-qtable
// RUN: not qopt %s -p 'stablehlo-quantize{calibration="%t.json" qtable="%t.bad-qtable"}' 2>&1 | FileCheck %s --check-prefix=BADQTABLE
// RUN: not qopt %s -p 'stablehlo-quantize' 2>&1 | FileCheck %s --check-prefix=NOCAL
// RUN: not qopt %s -p 'stablehlo-quantize{calibration="%t.json" method=median}' 2>&1 | FileCheck %s --check-prefix=METHOD
// RUN: not qopt %s -p 'stablehlo-quantize{calibration="%t.json" scheme=affine formula=cambricon}' 2>&1 | FileCheck %s --check-prefix=AFFINE
// RUN: not qopt %s -p 'stablehlo-quantize{calibration="%S/Inputs/missing.json"}' 2>&1 | FileCheck %s --check-prefix=MISSING
//
// The calibration data's largest magnitude is 1.27 (minmax, symmetric): the input's
// scale is 1.27 / 127 = 0.01. Weights per output channel, symmetric on [-127, 127]:
// channel 0 holds {0.5, 0.127} -> scale 0.5/127, storage {127, 32}; channel 1
// {-1.27, 0.5} -> 0.01, {-127, 50}; channel 2 {0.25, -0.02} -> 0.25/127, {127, -10}.
// The bias is i32 at s_x * s_w[c]: 0.1 / 3.937e-5 = 2540, -0.2 / 1e-4 = -2000,
// 0.3 / 1.9685e-5 = 15240. The ReLU and the max pool share the layer's output type;
// the layer requantizes from its i32 sum straight to it.

// CHECK: %[[X:.*]] = stablehlo.uniform_quantize %x : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.0099999997764825821>>
// CHECK: %[[XD:.*]] = stablehlo.uniform_dequantize %[[X]]
// CHECK: %[[W:.*]] = stablehlo.constant() <{value = dense<{{\[\[\[\[}}127, -127, 127], [32, 50, -10]]]]> : tensor<1x1x2x3xi8>}> : () -> tensor<1x1x2x3x!quant.uniform<i8<-127:127>:f32:3, {0.0039370078593492508,0.0099999997764825821,0.0019685039296746254}>>
// CHECK: %[[WD:.*]] = stablehlo.uniform_dequantize %[[W]]
// CHECK: %[[C:.*]] = stablehlo.convolution(%[[XD]], %[[WD]])
// CHECK: %[[ACC:.*]] = stablehlo.uniform_quantize %[[C]] : {{.*}} -> tensor<1x4x4x3x!quant.uniform<i32:f32:3, {3.9370077713502677E-5,9.9999995529651691E-5,1.9685038856751338E-5}>>
// CHECK: %[[ACCD:.*]] = stablehlo.uniform_dequantize %[[ACC]]
// CHECK: %[[B:.*]] = stablehlo.constant() <{value = dense<[2540, -2000, 15240]> : tensor<3xi32>}> : () -> tensor<3x!quant.uniform<i32:f32:0,
// CHECK: %[[BB:.*]] = stablehlo.broadcast_in_dim %[[B]], dims = [3]
// CHECK: %[[BD:.*]] = stablehlo.uniform_dequantize %[[BB]]
// CHECK: %[[S:.*]] = stablehlo.add %[[ACCD]], %[[BD]]
// CHECK: %[[SQ:.*]] = stablehlo.uniform_quantize %[[S]] : {{.*}} -> tensor<1x4x4x3x!quant.uniform<i32:f32:3,
// CHECK: %[[Y:.*]] = stablehlo.uniform_quantize %[[SQ]] : {{.*}} -> tensor<1x4x4x3x!quant.uniform<i8:f32, [[OUT:.*]]>>
// CHECK: stablehlo.constant() <{value = dense<0> : tensor<i8>}> : () -> tensor<!quant.uniform<i8:f32, [[OUT]]>>
// CHECK: stablehlo.maximum
// CHECK: stablehlo.uniform_quantize %{{.*}} -> tensor<1x4x4x3x!quant.uniform<i8:f32, [[OUT]]>>
// CHECK: "stablehlo.reduce_window"
// CHECK: stablehlo.uniform_quantize %{{.*}} -> tensor<1x2x2x3x!quant.uniform<i8:f32, [[OUT]]>>
// CHECK: %[[R:.*]] = stablehlo.uniform_dequantize
// CHECK: return %[[R]] : tensor<1x2x2x3xf32>

// The dequantize -> op -> quantize chains fold: an integer convolution into the i32
// accumulator, the i32 bias add, one requantization, the integer ReLU; the pool stays
// a float island between dequantize and quantize (stablehlo-legalize-to-tosa makes it
// tosa.max_pool2d).
// INT: %[[X:.*]] = stablehlo.uniform_quantize %x
// INT: %[[W:.*]] = stablehlo.constant()
// INT: %[[ACC:.*]] = stablehlo.convolution(%[[X]], %[[W]]) {{.*}} -> tensor<1x4x4x3x!quant.uniform<i32:f32:3,
// INT: %[[B:.*]] = stablehlo.broadcast_in_dim
// INT: %[[S:.*]] = stablehlo.add %[[ACC]], %[[B]] : tensor<1x4x4x3x!quant.uniform<i32:f32:3,
// INT: %[[Y:.*]] = stablehlo.uniform_quantize %[[S]] {{.*}} -> tensor<1x4x4x3x!quant.uniform<i8:f32,
// INT: stablehlo.maximum %[[Y]], %{{.*}} : tensor<1x4x4x3x!quant.uniform<i8:f32,
// INT-NOT: stablehlo.convolution({{.*}}f32

// Cambricon's power-of-two scale: t = 1.27 -> 2^(floor(log2 1.27) - 6) = 2^-6; weights
// per tensor: |w| <= 1.27 -> 2^(0 - 6) as well (weights are symmetric on 8 bits).
// POW2: stablehlo.uniform_quantize %x : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 1.562500e-02>>
// POW2: stablehlo.constant() <{value = dense<{{\[\[\[\[}}32, -81, 16], [8, 32, -1]]]]> : tensor<1x1x2x3xi8>}> : () -> tensor<1x1x2x3x!quant.uniform<i8<-127:127>:f32, 1.562500e-02>>

// A qtable: the convolution (key 1:0) on 16 bits — its input, its output and the ReLU
// sharing that type, its 8-bit weights stored in i16 (StableHLO's convolution takes one
// storage type) — and the max pool (9:0) left in float.
// QTABLE: %[[X:.*]] = stablehlo.uniform_quantize %x : {{.*}} -> tensor<1x4x4x2x!quant.uniform<i16:f32,
// QTABLE: stablehlo.constant() <{value = {{.*}} : tensor<1x1x2x3xi16>}> : () -> tensor<1x1x2x3x!quant.uniform<i16<-127:127>:f32:3,
// QTABLE: stablehlo.convolution(%[[X]], {{.*}} -> tensor<1x4x4x3x!quant.uniform<i32:f32:3,
// QTABLE: %[[Y:.*]] = stablehlo.maximum {{.*}} : tensor<1x4x4x3x!quant.uniform<i16:f32,
// QTABLE: %[[D:.*]] = stablehlo.uniform_dequantize %[[Y]]
// QTABLE: %[[P:.*]] = "stablehlo.reduce_window"(%[[D]]
// QTABLE-NOT: uniform_quantize
// QTABLE: return %[[P]] : tensor<1x2x2x3xf32>
// BADQTABLE: error: stablehlo-quantize: {{.*}}bad-qtable:1: expected '<tensor> <precision>' with precision one of i8, i16, float, got '4:0 i12'

// NOCAL: error: stablehlo-quantize: needs calibration=FILE (a qcalib output)
// METHOD: error: stablehlo-quantize: unknown method 'median' (one of minmax, moving_average, percentile, entropy, mse)
// AFFINE: error: stablehlo-quantize: the cambricon formula is symmetric only (a power-of-two scale)
// MISSING: error: stablehlo-quantize: cannot read calibration file '{{.*}}missing.json'
func.func @main(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x3xf32> {
  %w = stablehlo.constant dense<[[[[0.5, -1.27, 0.25], [0.127, 0.5, -0.02]]]]> : tensor<1x1x2x3xf32>
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x4x4x3xf32>
  %b = stablehlo.constant dense<[0.1, -0.2, 0.3]> : tensor<3xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<3xf32>) -> tensor<1x4x4x3xf32>
  %s = stablehlo.add %c, %bb : tensor<1x4x4x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1x4x4x3xf32>
  %r = stablehlo.maximum %s, %zb : tensor<1x4x4x3xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %p = "stablehlo.reduce_window"(%r, %init) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %e: tensor<f32>):
    %m = stablehlo.maximum %a, %e : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x4x4x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>
  func.return %p : tensor<1x2x2x3xf32>
}
