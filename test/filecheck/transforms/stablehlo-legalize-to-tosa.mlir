// Quantized StableHLO inference layers become TOSA integer programs.
// RUN: qopt %s --split-input-file -p stablehlo-legalize-to-tosa | FileCheck %s
// RUN: qopt %s --split-input-file -p 'stablehlo-legalize-to-tosa{rounding=single}' | FileCheck %s --check-prefix=SINGLE
// Numbers: test/unit/transforms/test_legalize_to_tosa.py runs random layers against the
// interpreter on the StableHLO program.

!act = !quant.uniform<i8:f32, 0.02:-5>
!wgt = !quant.uniform<i8<-127:127>:f32:3, {0.01,0.005}>
!acc = !quant.uniform<i32:f32:3, {2.0e-4,1.0e-4}>
!out = !quant.uniform<i8:f32, 0.05:3>
// Conv with per-channel weights into a per-channel i32 accumulator, requantized:
// the accumulator's scale is s_x * s_w exactly, so one per-channel rescale by
// s_x * s_w[c] / s_out remains (0.0002 / 0.05 = 1099511628 * 2^-38, 0.0001 /
// 0.05 = the same multiplier * 2^-39). The clamp (ReLU6-like bounds) becomes
// tosa.clamp on the storage; the max pool with a -128 init, tosa.max_pool2d.
// CHECK-LABEL: func.func @conv_relu_pool
// CHECK: %[[X:.*]] = stablehlo.bitcast_convert %x : (tensor<1x8x8x4x!quant.uniform<i8:f32, 2.000000e-02:-5>>) -> tensor<1x8x8x4xi8>
// CHECK-NEXT: %[[XZP:.*]] = tosa.const  values(dense<-5> : tensor<1xi8>)
// CHECK-NEXT: %[[WZP:.*]] = tosa.const  values(dense<0> : tensor<1xi8>)
// CHECK-NEXT: %[[B:.*]] = tosa.const  values(dense<0> : tensor<2xi32>)
// Constant weights are laid out (HWIO -> OHWI) at compile time: the NPU reads constants.
// CHECK-NEXT: %[[OHWI:.*]] = tosa.const  values(dense<1> : tensor<2x3x3x4xi8>)
// CHECK-NEXT: %[[ACC:.*]] = tosa.conv2d %[[X]], %[[OHWI]], %[[B]], %[[XZP]], %[[WZP]] pad([0, 1, 0, 1]) stride([2, 2]) dilation([1, 1]) acc_type(i32)  : {{.*}} -> tensor<1x4x4x2xi32>
// CHECK-NEXT: tosa.const  values(dense<1099511628> : tensor<2xi32>)
// CHECK-NEXT: tosa.const  values(dense<[38, 39]> : tensor<2xi8>)
// CHECK-NEXT: tosa.const  values(dense<0> : tensor<1xi32>)
// CHECK-NEXT: tosa.const  values(dense<3> : tensor<1xi8>)
// CHECK-NEXT: %[[Q:.*]] = tosa.rescale %[[ACC]], {{.*}} rounding_mode<DOUBLE_ROUND> per_channel(true) {{.*}} -> tensor<1x4x4x2xi8>
// CHECK: %[[R:.*]] = tosa.clamp %[[Q]] min_val(3 : i8) max_val(123 : i8)
// CHECK: %[[P:.*]] = tosa.max_pool2d %[[R]] kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) : (tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8>
// CHECK-NEXT: %[[OUT:.*]] = stablehlo.bitcast_convert %[[P]] : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2x!quant.uniform<i8:f32, 5.000000e-02:3>>
// CHECK-NEXT: return %[[OUT]]
// SINGLE-LABEL: func.func @conv_relu_pool
// SINGLE: tosa.rescale {{.*}} rounding_mode<SINGLE_ROUND> per_channel(true)
func.func @conv_relu_pool(%x: tensor<1x8x8x4x!act>) -> tensor<1x2x2x2x!out> {
  %w = stablehlo.constant() <{value = dense<1> : tensor<3x3x4x2xi8>}> : () -> tensor<3x3x4x2x!wgt>
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4x!act>, tensor<3x3x4x2x!wgt>) -> tensor<1x4x4x2x!acc>
  %q = stablehlo.uniform_quantize %c : (tensor<1x4x4x2x!acc>) -> tensor<1x4x4x2x!out>
  %lo = stablehlo.constant() <{value = dense<3> : tensor<i8>}> : () -> tensor<!out>
  %hi = stablehlo.constant() <{value = dense<123> : tensor<i8>}> : () -> tensor<!out>
  %r = stablehlo.clamp %lo, %q, %hi : (tensor<!out>, tensor<1x4x4x2x!out>, tensor<!out>) -> tensor<1x4x4x2x!out>
  %init = stablehlo.constant() <{value = dense<-128> : tensor<i8>}> : () -> tensor<!out>
  %p = "stablehlo.reduce_window"(%r, %init) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<!out>, %b: tensor<!out>):
    %m = stablehlo.maximum %a, %b : tensor<!out>
    stablehlo.return %m : tensor<!out>
  }) : (tensor<1x4x4x2x!out>, tensor<!out>) -> tensor<1x2x2x2x!out>
  func.return %p : tensor<1x2x2x2x!out>
}

// -----

!a = !quant.uniform<i8:f32, 0.05:-3>
!t = !quant.uniform<i8:f32, 0.0078125>
// tanh on i8 is a 256-entry table; at input -128 tanh(-6.25) quantizes to -128
// (0x80) and at 127 tanh(6.5) to 127 (0x7F).
// CHECK-LABEL: func.func @tanh_table
// CHECK: %[[T:.*]] = tosa.const  values(dense<"0x808080{{[0-9A-F]*}}7F7F7F"> : tensor<256xi8>)
// CHECK: tosa.table %{{.*}}, %[[T]] : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>
// CHECK-NOT: stablehlo.tanh
func.func @tanh_table(%x: tensor<4x!a>) -> tensor<4x!t> {
  %0 = stablehlo.tanh %x : (tensor<4x!a>) -> tensor<4x!t>
  func.return %0 : tensor<4x!t>
}

// -----

// Must not fire: float ops, a max pool whose init is not the storage minimum,
// a reduce_window that sums.
!a = !quant.uniform<i8:f32, 0.05:-3>
// CHECK-LABEL: func.func @keep
// CHECK-NOT: tosa.
// CHECK: stablehlo.reduce_window
// CHECK: stablehlo.maximum %a, %b
// CHECK: stablehlo.tanh %f
func.func @keep(%x: tensor<1x4x4x1x!a>, %f: tensor<4xf32>) -> (tensor<1x2x2x1x!a>, tensor<4xf32>) {
  %init = stablehlo.constant() <{value = dense<0> : tensor<i8>}> : () -> tensor<!a>
  %p = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<!a>, %b: tensor<!a>):
    %m = stablehlo.maximum %a, %b : tensor<!a>
    stablehlo.return %m : tensor<!a>
  }) : (tensor<1x4x4x1x!a>, tensor<!a>) -> tensor<1x2x2x1x!a>
  %t = stablehlo.tanh %f : tensor<4xf32>
  func.return %p, %t : tensor<1x2x2x1x!a>, tensor<4xf32>
}

// -----

// The quantize pass's bias: a per-channel i32 vector broadcast along the channel axis
// and added to a convolution's i32 accumulator of the same type stays a vector (with
// size-1 axes) that tosa.add broadcasts; the accumulator needs no rescale (its scale
// is s_x * s_w exactly), the requantization to i8 is one per-channel rescale.
!x = !quant.uniform<i8:f32, 0.02:-5>
!w = !quant.uniform<i8<-127:127>:f32:3, {0.01,0.005}>
!acc = !quant.uniform<i32:f32:3, {2.0e-4,1.0e-4}>
!bias = !quant.uniform<i32:f32:0, {2.0e-4,1.0e-4}>
!y = !quant.uniform<i8:f32, 0.05:3>
// CHECK-LABEL: func.func @conv_bias
// CHECK: %[[ACC:.*]] = tosa.conv2d
// CHECK-NOT: tosa.rescale
// CHECK: %[[B:.*]] = tosa.const values(dense<{{\[\[\[\[}}100, -7]]]]> : tensor<1x1x1x2xi32>)
// CHECK: %[[SUM:.*]] = tosa.add %[[ACC]], %[[B]] : (tensor<1x3x3x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x3x3x2xi32>
// CHECK: tosa.rescale %[[SUM]]
// CHECK-NOT: stablehlo.broadcast_in_dim
func.func @conv_bias(%x: tensor<1x3x3x1x!x>) -> tensor<1x3x3x2x!y> {
  %w = stablehlo.constant() <{value = dense<[[[[3, -4]]]]> : tensor<1x1x1x2xi8>}> : () -> tensor<1x1x1x2x!w>
  %acc = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x1x!x>, tensor<1x1x1x2x!w>) -> tensor<1x3x3x2x!acc>
  %b = stablehlo.constant() <{value = dense<[100, -7]> : tensor<2xi32>}> : () -> tensor<2x!bias>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<2x!bias>) -> tensor<1x3x3x2x!acc>
  %s = stablehlo.add %acc, %bb : tensor<1x3x3x2x!acc>
  %y = stablehlo.uniform_quantize %s : (tensor<1x3x3x2x!acc>) -> tensor<1x3x3x2x!y>
  func.return %y : tensor<1x3x3x2x!y>
}

// -----

// Float max pooling between a dequantize and a quantize into the same type (how the
// quantize pass leaves it) is tosa.max_pool2d on the storage: dequantization is
// monotonic and the -inf init is below every value. NCHW pools run in NHWC between
// transposes; a clamp by broadcast splat bounds (ReLU6 as importers write it) is a
// tosa.clamp.
!a = !quant.uniform<i8:f32, 0.05:-3>
// CHECK-LABEL: func.func @float_max_pool_nchw
// CHECK: %[[T:.*]] = tosa.transpose %{{.*}} perms([0, 2, 3, 1]) : (tensor<1x2x4x4xi8>) -> tensor<1x4x4x2xi8>
// CHECK: %[[P:.*]] = tosa.max_pool2d %[[T]] kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) : (tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8>
// CHECK: %[[B:.*]] = tosa.transpose %[[P]] perms([0, 3, 1, 2])
// CHECK: tosa.clamp %[[B]] min_val(-3 : i8) max_val(117 : i8)
// CHECK-NOT: stablehlo.reduce_window
// CHECK-NOT: stablehlo.clamp
func.func @float_max_pool_nchw(%x: tensor<1x2x4x4x!a>) -> tensor<1x2x2x2x!a> {
  %d = stablehlo.uniform_dequantize %x : (tensor<1x2x4x4x!a>) -> tensor<1x2x4x4xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %p = "stablehlo.reduce_window"(%d, %init) <{window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
  %q = stablehlo.uniform_quantize %p : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2x!a>
  %lo = stablehlo.constant() <{value = dense<-3> : tensor<i8>}> : () -> tensor<!a>
  %hi = stablehlo.constant() <{value = dense<117> : tensor<i8>}> : () -> tensor<!a>
  %lob = stablehlo.broadcast_in_dim %lo, dims = [] : (tensor<!a>) -> tensor<1x2x2x2x!a>
  %hib = stablehlo.broadcast_in_dim %hi, dims = [] : (tensor<!a>) -> tensor<1x2x2x2x!a>
  %r = stablehlo.clamp %lob, %q, %hib : tensor<1x2x2x2x!a>
  func.return %r : tensor<1x2x2x2x!a>
}

// -----

// Must not fire: a float max pool whose init (-1.0) is above the smallest value the
// input can hold ((-128 + 3) * 0.05 = -6.25) computes max(init, window) instead.
!a = !quant.uniform<i8:f32, 0.05:-3>
// CHECK-LABEL: func.func @float_max_pool_high_init
// CHECK-NOT: tosa.max_pool2d
// CHECK: stablehlo.reduce_window
func.func @float_max_pool_high_init(%x: tensor<1x4x4x2x!a>) -> tensor<1x2x2x2x!a> {
  %d = stablehlo.uniform_dequantize %x : (tensor<1x4x4x2x!a>) -> tensor<1x4x4x2xf32>
  %init = stablehlo.constant dense<-1.0> : tensor<f32>
  %p = "stablehlo.reduce_window"(%d, %init) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
  %q = stablehlo.uniform_quantize %p : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2x!a>
  func.return %q : tensor<1x2x2x2x!a>
}

// -----

// A grouped convolution (2 groups, neither plain nor depthwise): each group is a
// tosa.conv2d on its slice of the input channels (its constant weights sliced at
// compile time: the NPU needs constant weights), requantized with its own channels'
// scales, and the groups' results are concatenated along channels.
!x = !quant.uniform<i8:f32, 0.02:-5>
!w = !quant.uniform<i8<-127:127>:f32:3, {0.01,0.005,0.02,0.04}>
!y = !quant.uniform<i8:f32, 0.05:3>
// CHECK-LABEL: func.func @grouped
// CHECK-DAG: %[[X0:.*]] = tosa.slice %{{.*}} : (tensor<1x3x3x4xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x2xi8>
// CHECK-DAG: %[[W0:.*]] = tosa.const values(dense<{{\[\[\[\[}}3, 7]]], {{\[\[\[}}-4, 8]]]]> : tensor<2x1x1x2xi8>)
// CHECK: %[[C0:.*]] = tosa.conv2d %[[X0]], %[[W0]]
// CHECK: %[[R0:.*]] = tosa.rescale %[[C0]]
// CHECK: %[[C1:.*]] = tosa.conv2d
// CHECK: %[[R1:.*]] = tosa.rescale %[[C1]]
// CHECK: tosa.concat %[[R0]], %[[R1]] axis(3) : (tensor<1x3x3x2xi8>, tensor<1x3x3x2xi8>) -> tensor<1x3x3x4xi8>
// CHECK-NOT: stablehlo.convolution
func.func @grouped(%x: tensor<1x3x3x4x!x>) -> tensor<1x3x3x4x!y> {
  %w = stablehlo.constant() <{value = dense<[[[[3, -4, 5, 6], [7, 8, -9, 10]]]]> : tensor<1x1x2x4xi8>}> : () -> tensor<1x1x2x4x!w>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x3x3x4x!x>, tensor<1x1x2x4x!w>) -> tensor<1x3x3x4x!y>
  func.return %y : tensor<1x3x3x4x!y>
}

// -----

// A grouped convolution into its i32 accumulator, a per-channel bias added there and
// one requantization (the quantize pass's form): the bias joins each group's conv2d
// (its bias operand) and the requantization each group's rescale, so only int8
// results are concatenated.
!x = !quant.uniform<i8:f32, 0.02:-5>
!w = !quant.uniform<i8<-127:127>:f32:3, {0.01,0.005,0.02,0.04}>
!acc = !quant.uniform<i32:f32:3, {2.0e-4,1.0e-4,4.0e-4,8.0e-4}>
!bias = !quant.uniform<i32:f32:0, {2.0e-4,1.0e-4,4.0e-4,8.0e-4}>
!y = !quant.uniform<i8:f32, 0.05:3>
// CHECK-LABEL: func.func @grouped_bias
// CHECK: %[[B0:.*]] = tosa.const values(dense<[11, -12]> : tensor<2xi32>)
// CHECK: %[[C0:.*]] = tosa.conv2d %{{.*}}, %{{.*}}, %[[B0]], {{.*}} -> tensor<1x3x3x2xi32>
// CHECK: %[[R0:.*]] = tosa.rescale %[[C0]]
// CHECK: %[[B1:.*]] = tosa.const values(dense<[13, 14]> : tensor<2xi32>)
// CHECK: %[[C1:.*]] = tosa.conv2d %{{.*}}, %{{.*}}, %[[B1]], {{.*}} -> tensor<1x3x3x2xi32>
// CHECK: %[[R1:.*]] = tosa.rescale %[[C1]]
// CHECK: tosa.concat %[[R0]], %[[R1]] axis(3) : (tensor<1x3x3x2xi8>, tensor<1x3x3x2xi8>) -> tensor<1x3x3x4xi8>
// CHECK-NOT: tosa.add
// CHECK-NOT: stablehlo.add
func.func @grouped_bias(%x: tensor<1x3x3x4x!x>) -> tensor<1x3x3x4x!y> {
  %w = stablehlo.constant() <{value = dense<[[[[3, -4, 5, 6], [7, 8, -9, 10]]]]> : tensor<1x1x2x4xi8>}> : () -> tensor<1x1x2x4x!w>
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x3x3x4x!x>, tensor<1x1x2x4x!w>) -> tensor<1x3x3x4x!acc>
  %b = stablehlo.constant() <{value = dense<[11, -12, 13, 14]> : tensor<4xi32>}> : () -> tensor<4x!bias>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<4x!bias>) -> tensor<1x3x3x4x!acc>
  %s = stablehlo.add %c, %bb : tensor<1x3x3x4x!acc>
  %y = stablehlo.uniform_quantize %s : (tensor<1x3x3x4x!acc>) -> tensor<1x3x3x4x!y>
  func.return %y : tensor<1x3x3x4x!y>
}

// -----

// A requantization into a type whose storage range is narrower than its integer type's
// (a ReLU folded into it: i8<-5:127> at zero point -5) clamps after the rescale, which
// saturates to i8 only: uniform_quantize clamps to the storage range.
// CHECK-LABEL: func.func @narrow_storage_range
// CHECK: %[[R:.*]] = tosa.rescale
// CHECK-NEXT: %[[C:.*]] = tosa.clamp %[[R]] min_val(-5 : i8) max_val(127 : i8)
// CHECK-NEXT: stablehlo.bitcast_convert %[[C]] : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8<-5:127>:f32, 1.000000e-01:-5>>
// A requantization into the full range needs none.
// CHECK-LABEL: func.func @full_storage_range
// CHECK: tosa.rescale
// CHECK-NOT: tosa.clamp
func.func @narrow_storage_range(%x: tensor<4x!quant.uniform<i32:f32, 0.001>>) -> tensor<4x!quant.uniform<i8<-5:127>:f32, 0.1:-5>> {
  %0 = stablehlo.uniform_quantize %x : (tensor<4x!quant.uniform<i32:f32, 0.001>>) -> tensor<4x!quant.uniform<i8<-5:127>:f32, 0.1:-5>>
  return %0 : tensor<4x!quant.uniform<i8<-5:127>:f32, 0.1:-5>>
}
func.func @full_storage_range(%x: tensor<4x!quant.uniform<i32:f32, 0.001>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-5>> {
  %0 = stablehlo.uniform_quantize %x : (tensor<4x!quant.uniform<i32:f32, 0.001>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-5>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.1:-5>>
}
