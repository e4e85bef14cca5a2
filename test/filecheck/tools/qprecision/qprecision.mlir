// qprecision: the fewest ops to promote for a target, as a qtable the quantize pass reads.
// RUN: qcalib %s --data %S/Inputs/calib.npz -o %t.json --quiet
// RUN: qprecision %s --calibration %t.json --data %S/Inputs/eval.npz --target-sqnr 45 -o %t.qtable --quiet --search greedy | FileCheck %s
// RUN: FileCheck %s --check-prefix=TABLE < %t.qtable
// RUN: qopt %s -p 'stablehlo-quantize{calibration="%t.json" qtable="%t.qtable"}' | FileCheck %s --check-prefix=USED
// RUN: not qprecision %s --calibration %t.json --data %S/Inputs/eval.npz --target-sqnr 400 -o %t.all --quiet --search greedy | FileCheck %s --check-prefix=UNREACHED
// RUN: qprecision %s --calibration %t.json --data %S/Inputs/eval.npz --target-sqnr 45 -o %t.bisect --quiet | FileCheck %s --check-prefix=BISECT
// RUN: FileCheck %s --check-prefix=TABLE < %t.bisect
// RUN: not qprecision %s --calibration %t.json --data %S/Inputs/eval.npz --target-top1 1.0 --target-sqnr 4 -o %t.x 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not qprecision %s --calibration %t.missing --data %S/Inputs/eval.npz --target-sqnr 40 -o %t.x 2>&1 | FileCheck %s --check-prefix=MISSING
//
// All 8-bit the layer loses most (its output range is set by the calibration data's
// largest values); promoted alone it gains the most, and alone it reaches 45 dB.

// CHECK: baseline (all 8-bit): sqnr [[BASE:[0-9.]+]]
// CHECK: sensitivity (score gain when promoted alone):
// CHECK-NEXT: 1:0 stablehlo.convolution {{ *}}+{{[0-9.]+}} *
// CHECK-NEXT: 7:0 stablehlo.maximum {{ *}}+{{[0-9.]+}}{{$}}
// CHECK-NEXT: 9:0 stablehlo.reduce_window {{ *}}+{{[0-9.]+}}{{$}}
// CHECK-NEXT: promoted 1 op(s) (*): sqnr {{[0-9.]+}}, target reached
// The default search ranks by what dequantizing each op alone buys back (the
// convolution: its output range is the widest) and bisects: one op reaches the target.
// BISECT: all quantized: sqnr [[ALL:[0-9.]+]]
// BISECT-NEXT: rank unit tensor
// BISECT-NEXT: 1 1:0 stablehlo.convolution [[ALL]] {{[0-9.]+}}
// BISECT: bisection (i16), ops promoted: sqnr — 0: [[ALL]], 3: {{[0-9.]+}}, 1: {{[0-9.]+}}
// BISECT-NEXT: promoted 1 op(s): sqnr {{[0-9.]+}}, target 45 reached
// TABLE: # sqnr target 45:
// TABLE-NEXT: 1:0 i16
// USED: stablehlo.uniform_quantize %x : {{.*}}!quant.uniform<i16:f32,
// UNREACHED: promoted 3 op(s) (*): sqnr {{.*}}, target NOT reached (every candidate promoted)
// TWO: argument --target-sqnr: not allowed with argument --target-top1
// MISSING: qprecision: error: cannot read calibration file

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
